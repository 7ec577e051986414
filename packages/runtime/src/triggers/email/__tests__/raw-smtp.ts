import { type Socket, connect } from "node:net";

export interface Reply {
  code: number;
  text: string;
}

/**
 * A bare SMTP client over net.connect, for what nodemailer would smooth over: odd bytes in DATA,
 * exact reply codes per command, connections held open.
 */
export async function rawSession(port: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  const replies: Reply[] = [];
  const waiters: ((r: Reply) => void)[] = [];
  let buffer = "";
  let lines: string[] = [];
  let closed = false;
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    let nl = buffer.indexOf("\r\n");
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 2);
      lines.push(line.slice(4));
      // "250-..." continues a multi-line reply, "250 ..." ends it
      if (line[3] !== "-") {
        const reply = { code: Number(line.slice(0, 3)), text: lines.join("\n") };
        lines = [];
        const w = waiters.shift();
        if (w) w(reply);
        else replies.push(reply);
      }
      nl = buffer.indexOf("\r\n");
    }
  });
  socket.on("error", () => {});
  socket.on("close", () => {
    closed = true;
    for (const w of waiters.splice(0)) w({ code: 0, text: "connection closed" });
  });
  const next = (): Promise<Reply> =>
    new Promise((resolve) => {
      const r = replies.shift();
      if (r) resolve(r);
      else if (closed) resolve({ code: 0, text: "connection closed" });
      else waiters.push(resolve);
    });
  const command = (line: string): Promise<Reply> => {
    socket.write(`${line}\r\n`);
    return next();
  };
  const greeting = await next();
  return {
    greeting,
    next,
    command,
    /** Sends a message body as DATA content: CRLF line ends, dot-stuffed, terminated. */
    data(body: Buffer): Promise<Reply> {
      const text = body.toString("latin1").replace(/\r?\n/g, "\r\n");
      const stuffed = text.replace(/^\./gm, "..");
      socket.write(
        Buffer.from(`${stuffed}${stuffed.endsWith("\r\n") || stuffed === "" ? "" : "\r\n"}.\r\n`, "latin1"),
      );
      return next();
    },
    write: (bytes: string | Buffer) => socket.write(bytes),
    end: () => socket.end(),
    destroy: () => socket.destroy(),
    get closed() {
      return closed;
    },
  };
}

export type RawSession = Awaited<ReturnType<typeof rawSession>>;

/** One whole transaction; returns the reply to each step (stops at the first refusal). */
export async function rawSend(port: number, from: string, to: string[], body: Buffer) {
  const s = await rawSession(port);
  const steps: Record<string, Reply> = { greeting: s.greeting };
  try {
    steps.ehlo = await s.command("EHLO client.test");
    steps.mail = await s.command(`MAIL FROM:<${from}>`);
    if (steps.mail.code !== 250) return steps;
    const rcpts = [];
    for (const r of to) rcpts.push(await s.command(`RCPT TO:<${r}>`));
    steps.rcpt = rcpts.find((r) => r.code !== 250) ?? (rcpts[0] as Reply);
    if (!rcpts.some((r) => r.code === 250)) return steps;
    steps.data = await s.command("DATA");
    if (steps.data.code !== 354) return steps;
    steps.end = await s.data(body);
    await s.command("QUIT");
    return steps;
  } finally {
    s.destroy();
  }
}
