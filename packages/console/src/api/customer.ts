import { type Account, type Billing, Fangyan, type VoiceList } from "@fangyan/client";
import { MICRO_PER_YUAN } from "@fangyan/protocol";
import { toMicro } from "../money.js";

export interface Connection {
  client: Fangyan;
  account: Account;
  voices: VoiceList;
  /** The start of the key, to show which key is in use without showing the key. */
  keyHint: string;
}

/**
 * The customer side of the console: one client of the encrypted API
 * (@fangyan/client, WebCrypto) on this page's origin, and what it last learnt
 * about the account and the voices. Views listen for changes.
 */
export class CustomerState {
  #connection: Connection | undefined;
  readonly #listeners: Array<() => void> = [];

  /** `baseUrl` is this page's origin + "/api/v1": the key is sent nowhere else. */
  constructor(private readonly baseUrl: string) {}

  get connection(): Connection | undefined {
    return this.#connection;
  }

  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Checks the key by loading the voices and the account; throws the client's error when it is refused. */
  async connect(apiKey: string): Promise<Connection> {
    // No automatic retries: a rate limit is shown at once with its wait, rather than a button busy for a minute.
    const client = new Fangyan({ apiKey, baseUrl: this.baseUrl, maxRetries: 0 });
    const [voices, account] = await Promise.all([client.voices(), client.account()]);
    this.#connection = { client, voices, account, keyHint: `${apiKey.slice(0, 11)}…` };
    this.#emit();
    return this.#connection;
  }

  forget(): void {
    this.#connection = undefined;
    this.#emit();
  }

  async refreshAccount(): Promise<void> {
    const connection = this.#connection;
    if (!connection) return;
    const account = await connection.client.account();
    if (this.#connection === connection) {
      this.#connection = { ...connection, account };
      this.#emit();
    }
  }

  /** A synthesis was charged: the balance is the one the answer reported, and the total spent grows by the cost. */
  charged(billing: Billing): void {
    const connection = this.#connection;
    if (!connection) return;
    const consumedMicro = toMicro(connection.account.totalConsumedYuan) + toMicro(billing.costYuan);
    this.#connection = {
      ...connection,
      account: { ...connection.account, balanceYuan: billing.balanceAfterYuan, totalConsumedYuan: consumedMicro / MICRO_PER_YUAN },
    };
    this.#emit();
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}
