import { describe, expect, it } from "vitest";
import {
  finishedRunStatuses,
  isFinishedRunStatus,
  liveRunStatuses,
  RunChannel,
  runStatuses,
  StepStatus,
} from "./runs";

describe("run channels and statuses", () => {
  it("lists the seven channels a run can start from", () => {
    expect(RunChannel.options).toEqual(["manual", "webhook", "email", "cron", "api", "subflow", "error"]);
    expect(RunChannel.safeParse("ftp").success).toBe(false);
  });

  it("tells finished statuses from live ones", () => {
    expect(runStatuses.filter(isFinishedRunStatus)).toEqual([...finishedRunStatuses]);
    expect(liveRunStatuses.some(isFinishedRunStatus)).toBe(false);
    expect([...liveRunStatuses, ...finishedRunStatuses].sort()).toEqual([...runStatuses].sort());
  });

  it("knows the statuses a stored step can have", () => {
    expect(StepStatus.options).toEqual(["succeeded", "failed", "skipped", "waiting"]);
  });
});
