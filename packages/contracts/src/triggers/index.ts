export * from "./cron";
export * from "./email";
export * from "./imap";
export * from "./manual";
export * from "./webhook";
export * from "./error";
export * from "./mqtt";
export * from "./amqp";
