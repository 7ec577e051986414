/** The text format Prisma's SQLite adapter writes for DateTime; raw SQL must match it so ordering works. */
export function sqlDate(d: Date | number = Date.now()): string {
  return new Date(d).toISOString().replace("Z", "+00:00");
}
