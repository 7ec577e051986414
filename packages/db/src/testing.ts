// Test helpers other packages' suites share (not used by production code).
export { createTempPostgresDatabase, tempPostgres, testPostgresUrl } from "./__tests__/temp-postgres";
