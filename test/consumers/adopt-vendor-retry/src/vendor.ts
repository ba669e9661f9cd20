// A vendor SDK as many are written: it takes the global fetch when none is given, and turns
// every failure into its own error, keeping the message and status but not the headers.
export class CrawlError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "CrawlError";
  }
}

export interface CrawlClientOptions {
  apiKey: string;
  apiUrl: string;
  fetch?: typeof fetch;
}

export class CrawlClient {
  readonly #options: CrawlClientOptions;
  readonly #fetch: typeof fetch;

  constructor(options: CrawlClientOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  async scrape(url: string): Promise<{ markdown: string }> {
    let response: Response;
    try {
      response = await this.#fetch(`${this.#options.apiUrl}/v1/scrape`, {
        method: "POST",
        headers: { authorization: `Bearer ${this.#options.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ url }),
      });
    } catch (error) {
      throw new CrawlError(`Request failed: ${error instanceof Error ? error.message : String(error)}`, 0);
    }
    const body = (await response.json()) as { error?: string; data?: { markdown: string } };
    if (!response.ok) throw new CrawlError(body.error ?? `HTTP ${response.status}`, response.status, body);
    return body.data ?? { markdown: "" };
  }
}
