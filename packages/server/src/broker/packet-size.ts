/**
 * A size limit on what a connection may send the embedded broker: each MQTT packet's fixed header says how
 * long the packet is, so an oversized one is refused (the connection closed) before its body is read.
 */
import { Duplex } from 'node:stream';

/** The MQTT "remaining length": one to four bytes of seven bits each, low bits first. */
const MAX_LENGTH_BYTES = 4;

export class PacketTooLargeError extends Error {}

/** Wraps `inner` so every packet it delivers is at most `maxBytes` long (body, after the fixed header). */
export function limitPacketSize(inner: Duplex, maxBytes: number): Duplex {
  let bodyLeft = 0;
  let header: number[] = [];
  const outer = new Duplex({
    read() {
      inner.resume();
    },
    write(chunk: Buffer, encoding, callback) {
      inner.write(chunk, encoding, callback);
    },
    final(callback) {
      inner.end(callback);
    },
    destroy(error, callback) {
      inner.destroy(error ?? undefined);
      callback(error);
    },
  });

  /** Walks a chunk's packet boundaries; false when a packet is too large or malformed. */
  const allowed = (chunk: Buffer): boolean => {
    let at = 0;
    while (at < chunk.length) {
      if (bodyLeft > 0) {
        const take = Math.min(bodyLeft, chunk.length - at);
        bodyLeft -= take;
        at += take;
        continue;
      }
      const byte = chunk[at++]!;
      header.push(byte);
      if (header.length === 1) continue; // the packet type and flags
      if (byte & 0x80) {
        if (header.length - 1 >= MAX_LENGTH_BYTES) return false;
        continue;
      }
      let length = 0;
      for (let i = header.length - 1; i >= 1; i--) length = length * 128 + (header[i]! & 0x7f);
      header = [];
      if (length > maxBytes) return false;
      bodyLeft = length;
    }
    return true;
  };

  inner.on('data', (chunk: Buffer) => {
    if (!allowed(chunk)) {
      outer.destroy(new PacketTooLargeError(`an MQTT packet above ${maxBytes} bytes`));
      return;
    }
    if (!outer.push(chunk)) inner.pause();
  });
  inner.once('end', () => outer.push(null));
  inner.once('error', (error) => outer.destroy(error));
  inner.once('close', () => outer.destroy());
  // Aedes reads the peer's address from the stream it is given.
  Object.defineProperty(outer, 'remoteAddress', { get: () => (inner as Partial<{ remoteAddress: string }>).remoteAddress });
  return outer;
}
