import { main } from "./cli/main";

const code = await main(process.argv.slice(2), process.env);
if (code >= 0) {
  // Written to a pipe, stdout is asynchronous: exiting at once cut piped output at the pipe's 64 KiB. A write's
  // callback runs once everything queued before it is out, so the process exits after both streams are.
  let open = 2;
  const flushed = () => {
    if (--open === 0) process.exit(code);
  };
  process.stdout.write("", flushed);
  process.stderr.write("", flushed);
}
