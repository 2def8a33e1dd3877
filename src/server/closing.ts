import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/** The longest a refused body is read (and dropped) after its answer, while the client keeps sending it. */
const LINGER_MS = 30_000;
/** A client silent this long after its answer is not sending anything more: its connection is closed. */
const LINGER_IDLE_MS = 5_000;

/**
 * Lets a client read an answer sent with `Connection: close` before its request body was read to
 * the end (a 413). Closing at once would leave the rest of the body unread, and the kernel answers
 * unread data with a reset that can destroy the answer before the client reads it. Instead the
 * answer is flushed and this side of the connection closed (FIN), then what the client still sends
 * is read and dropped until it closes its side, falls silent, or LINGER_MS pass.
 */
export function closeAfterAnswer(req: IncomingMessage): void {
  const socket = req.socket as Socket & { destroySoon?: () => void };
  // Whatever still arrives for this request goes nowhere.
  req.removeAllListeners("data");
  req.resume();
  // Node ends a `Connection: close` answer's connection with destroySoon(): end, then destroy once flushed.
  socket.destroySoon = () => {
    if (socket.destroyed) return;
    const gone = () => {
      clearTimeout(cap);
      socket.destroy();
    };
    const cap = setTimeout(gone, LINGER_MS);
    cap.unref();
    socket.setTimeout(LINGER_IDLE_MS, gone);
    socket.once("end", gone);
    socket.once("close", () => clearTimeout(cap));
    socket.end();
    socket.resume();
  };
}
