// Splits a SQL file into its top-level statements, the way psql would: a semicolon ends a statement
// unless it sits in a string, a quoted name, a dollar-quoted body or a comment. Each statement keeps the
// `--` comment lines written directly above it, so a function's explanation travels with its text.

export interface Statement {
  /** The statement's text, from its first keyword to its semicolon (included). */
  text: string;
  /** The `--` lines directly above it (no blank line between), without section banners. */
  leading: string;
  /** 1-based line of the first keyword, for messages. */
  line: number;
}

/** A section banner (`-- ----…` or `-- ====…`) heads a group of statements, not the one below it. */
const BANNER = /^--\s*[-=]{8,}\s*$/;

export function splitSql(sql: string): Statement[] {
  const out: Statement[] = [];
  let start = -1; // offset of the current statement's first character, -1 between statements
  let i = 0;
  const n = sql.length;
  const push = (end: number) => {
    const text = sql.slice(start, end).trim();
    if (text) out.push({ text, leading: leadingComment(sql, start), line: lineOf(sql, start) });
    start = -1;
  };
  while (i < n) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === "-" && next === "-") {
      const eol = sql.indexOf("\n", i);
      i = eol < 0 ? n : eol + 1;
      continue;
    }
    if (c === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (start < 0) start = i;
    if (c === ";") {
      push(i + 1);
      i++;
    } else if (c === "'") {
      // E'…' strings escape with a backslash; standard strings double the quote.
      const escaped = i > 0 && /[eE]/.test(sql[i - 1]) && !/\w/.test(sql[i - 2] ?? "");
      i++;
      while (i < n) {
        if (escaped && sql[i] === "\\") i += 2;
        else if (sql[i] === "'" && sql[i + 1] === "'") i += 2;
        else if (sql[i] === "'") break;
        else i++;
      }
      i++;
    } else if (c === '"') {
      const end = sql.indexOf('"', i + 1);
      i = end < 0 ? n : end + 1;
    } else if (c === "$" && !/\w/.test(sql[i - 1] ?? "")) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i));
      if (tag) {
        const end = sql.indexOf(tag[0], i + tag[0].length);
        i = end < 0 ? n : end + tag[0].length;
      } else i++;
    } else i++;
  }
  if (start >= 0) push(n);
  return out;
}

function lineOf(sql: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (sql[i] === "\n") line++;
  return line;
}

function leadingComment(sql: string, offset: number): string {
  const before = sql.slice(0, offset).split("\n");
  before.pop(); // the statement's own line, up to its first keyword
  const lines: string[] = [];
  for (let k = before.length - 1; k >= 0; k--) {
    const line = before[k].trim();
    if (!line.startsWith("--") || BANNER.test(line)) break;
    lines.unshift(line);
  }
  return lines.join("\n");
}
