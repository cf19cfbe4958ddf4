/*
 * The lexical half of reading a mysqldump / MariaDB dump: bytes in, SQL tokens out, fed chunk by chunk so a dump of
 * any size passes through with only the current token in memory. Works on bytes, not decoded text, so a multi-byte
 * character split across two chunks, or raw binary inside a string, never confuses it; literals are decoded as
 * UTF-8 only once complete.
 */
import { SourceError } from './source.js';

export type Token =
  /** A bare word: a keyword, NULL, an unquoted name, a charset introducer such as `_binary`. */
  | { kind: 'word'; text: string }
  /** A `backtick quoted` name. */
  | { kind: 'ident'; text: string }
  /** A quoted string with its escapes applied; `doubleQuoted` for "..." (a name under ANSI_QUOTES, else a string). */
  | { kind: 'string'; text: string; doubleQuoted: boolean }
  /** An unsigned numeric literal as written (`12`, `12.50`, `1e-5`); a sign is a separate punctuation token. */
  | { kind: 'number'; text: string }
  /** 0x... or X'...': the bytes. */
  | { kind: 'hex'; bytes: Buffer }
  /** b'0101' or 0b0101: the binary digits. */
  | { kind: 'bits'; digits: string }
  | { kind: 'punct'; text: string }
  /** The statement delimiter (`;` unless a DELIMITER command changed it). */
  | { kind: 'end' };

const END: Token = { kind: 'end' };
const NEED_MORE = Symbol('need more');
type Step = Token | typeof NEED_MORE | null;

const QUOTE = 0x27;
const DOUBLE_QUOTE = 0x22;
const BACKTICK = 0x60;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

const isSpace = (c: number): boolean =>
  c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x0b;
const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;
const isHexDigit = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
// Bytes >= 0x80 belong to UTF-8 characters, which MySQL allows in unquoted names.
const isWordByte = (c: number): boolean =>
  (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || isDigit(c) || c === 0x5f || c === 0x24 || c >= 0x80;

/** What a backslash sequence stands for inside a MySQL string; other characters stand for themselves. */
const ESCAPES = new Map<number, number>([
  [0x30, 0x00], // \0
  [0x62, 0x08], // \b
  [0x6e, 0x0a], // \n
  [0x72, 0x0d], // \r
  [0x74, 0x09], // \t
  [0x5a, 0x1a], // \Z
]);
// MySQL keeps the backslash of \% and \_ (they exist for LIKE patterns), unlike every other escape.
const KEEPS_BACKSLASH = new Set([0x25, 0x5f]);

export class DumpTokenizer {
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  // After a token ran past the end of what we hold, wait until this much more has arrived before scanning it again,
  // so a literal spanning many chunks is rescanned a logarithmic number of times, not once per chunk.
  private retryAt = 0;
  private delimiter = Buffer.from(';');
  private atStatementStart = true;
  /** The longest token accepted: the caller lowers it while the input has not yet shown itself to be a dump. */
  maxTokenBytes = 1 << 30;
  /** Bytes consumed before the current buffer: for error positions. */
  private consumed = 0;

  /** Feeds a chunk and hands every complete token to `emit`. */
  write(chunk: Buffer, emit: (token: Token) => void): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < this.retryAt) return;
    this.refill();
    this.run(false, emit);
  }

  /** The input has ended: emits what remains, and throws if it stops inside a string or comment. */
  end(emit: (token: Token) => void): void {
    this.refill();
    this.run(true, emit);
  }

  /** The byte offset reached, for messages that point into the file. */
  get offset(): number {
    return this.consumed + this.pos;
  }

  private refill(): void {
    const rest = this.buf.subarray(this.pos);
    this.consumed += this.pos;
    this.buf =
      rest.length === 0 && this.pending.length === 1 ? this.pending[0]! : Buffer.concat([rest, ...this.pending]);
    this.pos = 0;
    this.pending = [];
    this.pendingBytes = 0;
    this.retryAt = 0;
  }

  private run(eof: boolean, emit: (token: Token) => void): void {
    for (;;) {
      const step = this.next(eof);
      if (step === null) return;
      if (step === NEED_MORE) {
        const held = this.buf.length - this.pos;
        if (held > this.maxTokenBytes) {
          throw new SourceError(
            this.maxTokenBytes < 1 << 30 ? 'not-a-dump' : 'bad-dump',
            `no SQL statement ends within ${held} bytes after byte ${this.offset}`,
          );
        }
        this.retryAt = held;
        return;
      }
      emit(step);
    }
  }

  private token(token: Token, end: number): Token {
    this.pos = end;
    this.atStatementStart = token === END;
    return token;
  }

  private next(eof: boolean): Step {
    const b = this.buf;
    const n = b.length;
    for (;;) {
      let p = this.pos;
      while (p < n && isSpace(b[p]!)) p++;
      this.pos = p;
      if (p >= n) return null;
      const c = b[p]!;
      // Anything that needs to look a few bytes ahead waits for them, unless the input has ended.
      if (p + 10 > n && !eof) return NEED_MORE;

      if (this.atStatementStart && (c === 0x44 || c === 0x64) && isDelimiterCommand(b, p)) {
        // A client command, not SQL: its argument runs to the end of the line.
        const eol = b.indexOf(NEWLINE, p);
        if (eol < 0 && !eof) return NEED_MORE;
        const end = eol < 0 ? n : eol;
        const delimiter = b.toString('utf8', p + 10, end).trim();
        if (delimiter) this.delimiter = Buffer.from(delimiter);
        this.pos = end;
        continue;
      }
      if (
        c === this.delimiter[0] &&
        b.compare(this.delimiter, 0, this.delimiter.length, p, p + this.delimiter.length) === 0
      ) {
        return this.token(END, p + this.delimiter.length);
      }
      // Comments, including the /*!40101 ... */ ones mysqldump wraps its SET and ALTER statements in: none of them
      // carries table structure or rows.
      if (c === 0x23 || (c === 0x2d && b[p + 1] === 0x2d && (p + 2 >= n || b[p + 2]! <= 0x20))) {
        const eol = b.indexOf(NEWLINE, p);
        if (eol < 0 && !eof) return NEED_MORE;
        this.pos = eol < 0 ? n : eol + 1;
        continue;
      }
      if (c === 0x2f && b[p + 1] === 0x2a) {
        const close = b.indexOf('*/', p + 2);
        if (close < 0) {
          if (!eof) return NEED_MORE;
          throw new SourceError('bad-dump', `the file ends inside a comment that opens at byte ${this.offset}`);
        }
        this.pos = close + 2;
        continue;
      }

      if (c === QUOTE || c === DOUBLE_QUOTE) return this.quoted(p, eof);
      if (c === BACKTICK) return this.backticked(p, eof);
      if (c === 0x30 && (b[p + 1] === 0x78 || b[p + 1] === 0x62)) {
        const literal = this.prefixedNumber(p, eof);
        if (literal !== undefined) return literal;
      }
      if (isDigit(c) || (c === 0x2e && isDigit(b[p + 1]))) return this.number(p, eof);
      if (isWordByte(c)) {
        if (b[p + 1] === QUOTE && (c === 0x78 || c === 0x58 || c === 0x62 || c === 0x42 || c === 0x6e || c === 0x4e)) {
          return this.prefixedString(p, eof);
        }
        return this.word(p, eof);
      }
      return this.token({ kind: 'punct', text: String.fromCharCode(c) }, p + 1);
    }
  }

  /** Finds the closing quote of the literal opening at `open`; -1 when the buffer ends first. */
  private closingQuote(open: number, eof: boolean): { close: number; plain: boolean } | -1 {
    const b = this.buf;
    const n = b.length;
    const q = b[open]!;
    let plain = true;
    let i = open + 1;
    for (;;) {
      if (i >= n) return -1;
      const c = b[i]!;
      if (c === BACKSLASH && q !== BACKTICK) {
        plain = false;
        i += 2;
      } else if (c === q) {
        // The next chunk may begin with a second quote, unless there is no next chunk.
        if (i + 1 >= n && !eof) return -1;
        if (b[i + 1] !== q) return { close: i, plain };
        plain = false;
        i += 2;
      } else {
        i++;
      }
    }
  }

  private unterminated(eof: boolean, what: string): typeof NEED_MORE {
    if (!eof) return NEED_MORE;
    throw new SourceError('bad-dump', `the file ends inside ${what} that opens at byte ${this.offset}`);
  }

  private quoted(open: number, eof: boolean): Step {
    const found = this.closingQuote(open, eof);
    if (found === -1) return this.unterminated(eof, 'a string');
    const b = this.buf;
    const q = b[open]!;
    const text = found.plain ? b.toString('utf8', open + 1, found.close) : unescape(b, open + 1, found.close, q);
    return this.token({ kind: 'string', text, doubleQuoted: q === DOUBLE_QUOTE }, found.close + 1);
  }

  private backticked(open: number, eof: boolean): Step {
    const found = this.closingQuote(open, eof);
    if (found === -1) return this.unterminated(eof, 'a quoted name');
    const b = this.buf;
    const text = found.plain
      ? b.toString('utf8', open + 1, found.close)
      : b.toString('utf8', open + 1, found.close).replaceAll('``', '`');
    return this.token({ kind: 'ident', text }, found.close + 1);
  }

  /** 0x1F / 0b101; undefined when it is not one after all (`0xyz` is a name). */
  private prefixedNumber(p: number, eof: boolean): Step | undefined {
    const b = this.buf;
    const hex = b[p + 1] === 0x78;
    let i = p + 2;
    while (i < b.length && (hex ? isHexDigit(b[i]!) : b[i] === 0x30 || b[i] === 0x31)) i++;
    if (i >= b.length && !eof) return NEED_MORE;
    if (i === p + 2 || (i < b.length && isWordByte(b[i]!))) return undefined;
    const digits = b.toString('latin1', p + 2, i);
    return this.token(hex ? { kind: 'hex', bytes: hexBytes(digits) } : { kind: 'bits', digits }, i);
  }

  /** X'1F', B'101', N'text'. */
  private prefixedString(p: number, eof: boolean): Step {
    const found = this.closingQuote(p + 1, eof);
    if (found === -1) return this.unterminated(eof, 'a string');
    const b = this.buf;
    const prefix = b[p]! | 0x20;
    if (prefix === 0x6e) {
      const text = found.plain ? b.toString('utf8', p + 2, found.close) : unescape(b, p + 2, found.close, QUOTE);
      return this.token({ kind: 'string', text, doubleQuoted: false }, found.close + 1);
    }
    const digits = b.toString('latin1', p + 2, found.close);
    return this.token(
      prefix === 0x78 ? { kind: 'hex', bytes: hexBytes(digits) } : { kind: 'bits', digits },
      found.close + 1,
    );
  }

  private number(p: number, eof: boolean): Step {
    const b = this.buf;
    const n = b.length;
    let i = p;
    while (isDigit(b[i])) i++;
    if (b[i] === 0x2e) {
      i++;
      while (isDigit(b[i])) i++;
    }
    if (
      (b[i] === 0x65 || b[i] === 0x45) &&
      (isDigit(b[i + 1]) || ((b[i + 1] === 0x2d || b[i + 1] === 0x2b) && isDigit(b[i + 2])))
    ) {
      i += 2;
      while (isDigit(b[i])) i++;
    }
    if (i >= n && !eof) return NEED_MORE;
    // MySQL allows names that start with digits (`2fa`): a number running straight into letters is one.
    if (i < n && isWordByte(b[i]!)) return this.word(p, eof);
    return this.token({ kind: 'number', text: b.toString('latin1', p, i) }, i);
  }

  private word(p: number, eof: boolean): Step {
    const b = this.buf;
    let i = p;
    while (i < b.length && isWordByte(b[i]!)) i++;
    if (i >= b.length && !eof) return NEED_MORE;
    return this.token({ kind: 'word', text: b.toString('utf8', p, i) }, i);
  }
}

function isDelimiterCommand(b: Buffer, p: number): boolean {
  return b.toString('latin1', p, p + 9).toLowerCase() === 'delimiter' && (b[p + 9] === 0x20 || b[p + 9] === 0x09);
}

function hexBytes(digits: string): Buffer {
  // MySQL pads an odd number of hex digits on the left.
  return Buffer.from(digits.length % 2 === 1 ? `0${digits}` : digits, 'hex');
}

/** Applies MySQL's backslash escapes and doubled quotes to b[start, end). */
function unescape(b: Buffer, start: number, end: number, quote: number): string {
  const out = Buffer.allocUnsafe(end - start);
  let o = 0;
  for (let i = start; i < end; i++) {
    const c = b[i]!;
    if (c === BACKSLASH && i + 1 < end) {
      const e = b[++i]!;
      if (KEEPS_BACKSLASH.has(e)) out[o++] = BACKSLASH;
      out[o++] = ESCAPES.get(e) ?? e;
    } else {
      out[o++] = c;
      if (c === quote) i++; // a doubled quote stands for one
    }
  }
  return out.toString('utf8', 0, o);
}
