// Test-only oracle: the regular-expression reader of the IETF RateLimit field's simple form, as it
// stood before the char scanner of src/signals/ietf.ts replaced it (issue 23). The scanner must
// give exactly its answers (test/signals/ietf-fast.test.ts).

import type { Policy } from "../../../src/signals/ietf.js";

const SIMPLE_ITEM =
  /[ \t]*(?:"([\x20\x21\x23-\x5b\x5d-\x7e]*)"|([A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*))((?:;[a-z*][a-z0-9_\-.*]*=-?\d{1,15})*)[ \t]*(,|$)/y;
const MAX_SIMPLE_ITEMS = 16;

function nonNegativeInteger(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

export function simplePoliciesByRegex(field: string): Policy[] | undefined {
  let start = 0;
  let end = field.length;
  while (start < end && field.charCodeAt(start) === 0x20) start += 1;
  while (end > start && field.charCodeAt(end - 1) === 0x20) end -= 1;
  if (start === end || field[start] === "\t" || field[end - 1] === "\t") return undefined;
  const text = end === field.length ? field : field.slice(0, end);
  const policies: Policy[] = [];
  SIMPLE_ITEM.lastIndex = start;
  while (SIMPLE_ITEM.lastIndex < text.length) {
    const match = SIMPLE_ITEM.exec(text);
    if (match === null || policies.length === MAX_SIMPLE_ITEMS) return undefined;
    if (match[4] === "," && SIMPLE_ITEM.lastIndex === text.length) return undefined;
    let remaining: number | undefined;
    let reset: number | undefined;
    const params = match[3] ?? "";
    if (params !== "") {
      for (const param of params.slice(1).split(";")) {
        const equals = param.indexOf("=");
        const key = param.slice(0, equals);
        if (key === "r") remaining = nonNegativeInteger(Number(param.slice(equals + 1)));
        else if (key === "t") reset = nonNegativeInteger(Number(param.slice(equals + 1)));
      }
    }
    const name = match[1] ?? match[2];
    policies.push({ name: name === "" ? undefined : name, remaining, reset });
  }
  return policies;
}
