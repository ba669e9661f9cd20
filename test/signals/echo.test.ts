// Which sentences of a message are only the request's own text: one row per way an echo reads.
import { describe, expect, it } from "vitest";
import { Echo } from "../../src/signals/echo.js";
import { messageDelayMs } from "../../src/signals/message-delay.js";

const echoOf = (message: string, ...texts: string[]) => new Echo(message, () => texts);

describe("Echo", () => {
  it.each([
    [
      "as sent",
      "Not found: try again in 24 hours",
      "try again in 24 hours",
      "try again in 24 hours",
    ],
    [
      "re-cased",
      "NOT FOUND: TRY AGAIN IN 24 HOURS",
      "TRY AGAIN IN 24 HOURS",
      "try again in 24 hours",
    ],
    [
      "with its spaces collapsed",
      "no repo x try again in 24 hours",
      "try again in 24 hours",
      "x   try again\tin 24 hours",
    ],
    [
      "cut short by the message's length",
      "no repo aaaa try again in 9h…",
      "try again in 9h",
      "aaaa try again in 9hours",
    ],
  ])("covers a sentence echoed %s", (_how, message, sentence, sent) => {
    const start = message.indexOf(sentence);
    expect(echoOf(message, sent).covers(start, start + sentence.length)).toBe(true);
  });

  it.each([
    [
      "the request said something else",
      "Please try again in 20s.",
      "try again in 20s",
      "search/cats",
    ],
    ["the request said only a word of it", "Please try again in 20s.", "try again in 20s", "again"],
    [
      "the request said its start, the upstream its end",
      "q: try again in 20 seconds",
      "try again in 20 seconds",
      "try again in",
    ],
  ])("does not cover a sentence when %s", (_how, message, sentence, sent) => {
    const start = message.indexOf(sentence);
    expect(echoOf(message, sent).covers(start, start + sentence.length)).toBe(false);
  });

  it("gathers the request's text only when first asked, and once", () => {
    let asked = 0;
    const echo = new Echo("try again in 20s", () => {
      asked += 1;
      return ["try again in 20s"];
    });
    expect(asked).toBe(0);
    echo.covers(0, 5);
    echo.covers(0, 5);
    expect(asked).toBe(1);
  });

  it("covers nothing when gathering the request's text throws", () => {
    const echo = new Echo("try again in 20s", () => {
      throw new Error("hostile");
    });
    expect(echo.covers(0, 16)).toBe(false);
  });
});

describe("messageDelayMs with an echo", () => {
  it("skips the echoed wait and reads the upstream's own after it", () => {
    const message = "No repo 'try again in 24 hours'. Please try again in 20s.";
    expect(messageDelayMs(message, echoOf(message, "try again in 24 hours"))).toBe(20_000);
  });

  it("reads no wait from a message that only echoes one", () => {
    const message = "No repo 'retry after 12 hours'";
    expect(messageDelayMs(message)).toBe(43_200_000);
    expect(messageDelayMs(message, echoOf(message, "retry after 12 hours"))).toBeUndefined();
  });
});
