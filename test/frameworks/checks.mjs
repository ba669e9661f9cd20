// The checks every host-framework project makes, in one order, against the shared server
// (server.mjs): the short throttle of `search` waited out, the long one of `lookup` handed to the
// model (and what the model read, captured), the cooldown answering the next `lookup` without a
// request, an abort ending a wait within 100 ms of its signal with no retry sent after it, and the
// event counts matching what the server sent back, so no call went around the layer.
//
// `run(name, signal)` makes one tool call the way the framework's agent does and resolves to what
// the model is given (an error the framework throws counts as that); `text(view)` is the string
// the model reads in it. `cooldown: false` is for a framework that drops what makes a cooldown
// safe (docs/host-side.md): there the next `lookup` must reach the server, and no cooldown answers.
// `abort: false` is for a framework that gives its tools no signal: there the wait must go on.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readThrottle } from "mcp-upstream-throttle/client";

/** The version of `name` the project installed (a family's test serves each of its pinned majors). */
export function versionOf(name) {
  return JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8")).version;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// The sentence, or the result's own fields where the framework hands the model JSON. The server's
// 60-second window started a moment before: on a loaded machine a few seconds of it are gone.
const LONG =
  /Rate limited by lookup_rate_limit\. Retry after (5[5-9]|60) seconds\.|"retry_after_seconds":(5[5-9]|60),"limit":"lookup_rate_limit"/;

/** How late after its signal an abort may end the call (the goal is 100 ms; see below). */
const ABORT_BOUND_MS = 400;

/** Runs the checks; resolves to one line saying what was seen, for the CI log. */
export async function checkHost(
  label,
  { servers, events, run, text, cooldown = true, abort = true },
) {
  const count = (type) => events.filter((event) => event.type === type).length;
  const calls = () => servers.counts.toolCalls;

  // One search spends the upstream's call of a second, the next is throttled for a second. A
  // loaded machine may cross into the next second in between: then the pair is made again, in a
  // new second, until the server has sent the throttle (three times at most).
  const throttledSearch = async (call) => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await sleep(1_100);
      await run("search");
      const throttled = servers.counts.throttled;
      const outcome = await call();
      if (servers.counts.throttled > throttled) return outcome;
    }
    assert.fail("the upstream never throttled the second search of a second");
  };

  // The short throttle, waited out by the host.
  const started = performance.now();
  const short = await throttledSearch(() => run("search"));
  const waited = Math.round(performance.now() - started - 1_100);
  assert.equal(count("retry"), 1, "the short throttle was waited out and retried once");
  assert.equal(readThrottle(short), undefined, "the retry after the wait succeeded");
  assert.doesNotMatch(text(short), /Rate limited/);

  // A minute is past the wait budget: the model gets the throttle, in the framework's own shape.
  const view = text(await run("lookup"));
  assert.match(view, LONG, "the model reads the limit and the time to wait");

  const before = calls();
  const cooled = await run("lookup");
  if (cooldown) {
    assert.equal(calls(), before, "the cooldown answered without a request to the server");
    assert.equal(count("cooldown-hit"), 1);
  } else {
    assert.equal(calls(), before + 1, "no cooldown: the framework drops what makes one safe");
    assert.equal(count("cooldown-hit"), 0);
  }
  assert.match(text(cooled), /lookup_rate_limit/);

  // Again, now with a signal that fires 100 ms into the wait: 100 ms after the layer reported
  // the throttle (a fixed delay from the call's start could end the call before the server
  // answered, on a loaded machine).
  let abortedAt;
  let sent;
  await throttledSearch(async () => {
    const controller = new AbortController();
    const seen = count("throttle");
    let timer;
    const watch = setInterval(() => {
      if (count("throttle") === seen) return;
      clearInterval(watch);
      timer = setTimeout(() => {
        abortedAt = performance.now();
        controller.abort(new Error("stop"));
      }, 100);
    }, 5);
    sent = calls();
    await run("search", controller.signal).catch(() => undefined);
    clearInterval(watch);
    clearTimeout(timer);
  });
  assert.ok(abortedAt !== undefined, "the call waited instead of answering at once");
  const late = Math.round(performance.now() - abortedAt);
  // Had the wait gone on, its retry would have reached the server after the second.
  await sleep(1_200);
  if (abort) {
    // The goal is 100 ms, and the line printed below gives the figure. The bound asserted is
    // looser, for the framework's own unwinding on a loaded 2-core machine (126 ms was seen),
    // and still far below the ~900 ms of a wait the abort did not end.
    assert.ok(
      late < ABORT_BOUND_MS,
      `the call ended ${late} ms after the abort (limit ${ABORT_BOUND_MS} ms)`,
    );
    assert.equal(calls(), sent + 1, "no retry was sent after the abort");
  } else {
    // The framework passes its tools no signal: the wait goes on and its retry is sent.
    assert.ok(late > 500, `the wait went on after the abort (${late} ms)`);
    assert.equal(calls(), sent + 2, "the retry after the wait was sent");
  }

  // Every throttled result the server sent went through the layer: one throttle event each, and
  // a retry event only for the retry that was sent.
  assert.equal(
    count("throttle"),
    servers.counts.throttled,
    `a throttle event per throttled result (${servers.counts.throttled} sent, ${calls()} calls)`,
  );
  assert.equal(count("retry"), abort ? 1 : 2, "a retry event only for a retry that was sent");
  return (
    `${label}: short throttle waited (${waited} ms); the model read "${view}"; ` +
    `${cooldown ? "cooldown answered locally" : "no cooldown (by design)"}; ${abort ? `abort ended the call ${late} ms after the signal` : `no signal reaches the tool (the call ended ${late} ms after the abort)`}; ` +
    `${calls()} tool calls reached the server, ${servers.counts.throttled} throttled, ` +
    `events: ${count("throttle")} throttle, ${count("retry")} retry, ${count("cooldown-hit")} cooldown-hit`
  );
}
