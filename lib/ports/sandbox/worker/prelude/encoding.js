// Evaluated inside QuickJS the first time a run touches one of its globals (see ../prelude.mjs):
// TextEncoder, TextDecoder, atob and btoa. The byte work happens in the worker (`host`), where it is native and fast;
// a failed call comes back as null so the error thrown here has the class the Web platform uses.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- an expression: ../prelude.mjs evaluates the file for this function
(function installEncoding(host, internals) {
  "use strict";

  /** Any BufferSource as a (buffer, offset, length) triple, the shape the host functions take. */
  function bufferSourceParts(input, what) {
    if (input instanceof ArrayBuffer) return [input, 0, input.byteLength];
    if (ArrayBuffer.isView(input)) return [input.buffer, input.byteOffset, input.byteLength];
    throw new TypeError(`${what}: expected an ArrayBuffer or a typed array`);
  }

  /** A copy of any body-like bytes as a Uint8Array (Request and Response bodies use it). */
  function copyBytes(input, what) {
    const [buffer, offset, length] = bufferSourceParts(input, what);
    return new Uint8Array(buffer.slice(offset, offset + length));
  }

  class TextEncoder {
    get encoding() {
      return "utf-8";
    }
    encode(input = "") {
      return new Uint8Array(host.utf8Encode(String(input)));
    }
  }

  const UTF8_LABELS = new Set(["utf-8", "utf8", "unicode-1-1-utf-8"]);

  class TextDecoder {
    #fatal;
    #ignoreBOM;
    constructor(label = "utf-8", options = {}) {
      if (!UTF8_LABELS.has(String(label).trim().toLowerCase())) throw new RangeError(`TextDecoder: only utf-8 is supported, not "${label}"`);
      this.#fatal = Boolean(options && options.fatal);
      this.#ignoreBOM = Boolean(options && options.ignoreBOM);
    }
    get encoding() {
      return "utf-8";
    }
    get fatal() {
      return this.#fatal;
    }
    get ignoreBOM() {
      return this.#ignoreBOM;
    }
    decode(input) {
      if (input === undefined || input === null) return "";
      const [buffer, offset, length] = bufferSourceParts(input, "TextDecoder.decode");
      const text = host.utf8Decode(buffer, offset, length, this.#fatal, this.#ignoreBOM);
      if (text === null) throw new TypeError("TextDecoder.decode: the data is not valid UTF-8");
      return text;
    }
  }

  function invalidCharacter(message) {
    const error = new Error(message);
    error.name = "InvalidCharacterError";
    return error;
  }

  function atob(data) {
    if (arguments.length === 0) throw new TypeError("atob: 1 argument required");
    const decoded = host.atob(String(data));
    if (decoded === null) throw invalidCharacter("atob: the string is not correctly base64-encoded");
    return decoded;
  }

  function btoa(data) {
    if (arguments.length === 0) throw new TypeError("btoa: 1 argument required");
    const encoded = host.btoa(String(data));
    if (encoded === null) throw invalidCharacter("btoa: the string contains characters outside of Latin1");
    return encoded;
  }

  internals.copyBytes = copyBytes;
  internals.utf8 = { encoder: new TextEncoder(), decoder: new TextDecoder() };
  internals.defineGlobals({ TextEncoder, TextDecoder, atob, btoa });
});
