import { manualTrigger } from "@switchyard/nodes";
import { defineTriggerListener } from "../listener";

/** Nothing to listen on: manual runs are started by a person through RunControl (editor, API, CLI). */
export const manualListener = defineTriggerListener({
  trigger: manualTrigger,
  bind() {},
  unbind() {},
});
