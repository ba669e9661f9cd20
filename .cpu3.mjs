const lib = await import("/work/main/dist/index.js");
const BODY = JSON.stringify({ message: "This endpoint has been requested too many times." });
const H = { "content-type": "application/json; charset=utf-8", "retry-after": "60", "x-ratelimit-remaining": "0", date: "Tue, 01 Dec 2026 15:00:00 GMT", connection: "keep-alive", "content-length": "61" };
const fake = async () => new Response(BODY, { status: 429, headers: H });
const wrapped = lib.throttledFetch({ limit: "search", fetch: fake });
for (let i = 0; i < 200000; i++) await wrapped("https://api.example.com/search").catch(() => {});
