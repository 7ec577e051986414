export {
  type CronBinding,
  type CronFirePayload,
  type CronHealth,
  type CronStore,
  cronBindingSchema,
} from "./binding";
export { type Clock, MAX_TIMEOUT_MS, realClock } from "./clock";
export { describeSchedule, type ScheduleDescription } from "./describe";
export { CronConfigError } from "./expression";
export {
  type CronScheduler,
  type CronSchedulerOptions,
  createCronScheduler,
} from "./scheduler";
export { localRunCoordinator } from "./node-cron-hooks";
