#!/usr/bin/env node
// The Fangyan SDK from Node: voices, the account, a price estimate, speech
// into a file, and what each error means. Build first (npm run build), then:
//   FANGYAN_API_KEY=fy_… FANGYAN_BASE_URL=http://127.0.0.1:8080/api/v1 \
//     node examples/node-sdk.mjs "早晨！今日天氣好好。" yue-female-1
import {
  APIConnectionError,
  APIError,
  estimateCost,
  Fangyan,
  FangyanError,
  InsufficientBalanceError,
  RateLimitError,
  splitText,
  ttsToFile,
} from "@fangyan/client/node";

const [text = "你好，世界！", voiceArg] = process.argv.slice(2);

let fy;
try {
  fy = new Fangyan(); // FANGYAN_API_KEY, FANGYAN_BASE_URL
} catch (error) {
  console.error(error.message);
  process.exit(2);
}

try {
  const { voices, byDialect } = await fy.voices();
  for (const [dialect, list] of Object.entries(byDialect)) {
    console.log(`${dialect}: ${list.map((voice) => `${voice.id} (${voice.name})`).join(", ")}`);
  }
  const voiceId = voiceArg ?? voices[0]?.id;

  const account = await fy.account();
  // The same arithmetic as the service, per request of at most 5000 characters.
  const estimate = splitText(text).reduce((sum, piece) => sum + estimateCost(piece, account.pricePerWanYuan), 0);
  console.log(`Balance ${account.balanceYuan} yuan; this text will cost about ${estimate.toFixed(5)} yuan`);

  const result = await ttsToFile(fy, { text, voiceId }, "node-sdk.mp3", {
    onProgress: ({ partsDone, parts }) => parts > 1 && console.log(`  ${partsDone}/${parts} requests done`),
  });
  console.log(
    `Saved ${result.path}: ${(result.durationMs / 1000).toFixed(1)} s, ${result.costYuan} yuan, ${result.balanceAfterYuan} yuan left`,
  );
  console.log(`Audio URL (no key needed, expires after the retention period): ${result.parts[0]?.audioUrl}`);
} catch (error) {
  if (error instanceof InsufficientBalanceError) {
    console.error(`Recharge first: ${error.requiredCents} cents needed, ${error.availableCents} available`);
  } else if (error instanceof RateLimitError) {
    console.error(`Rate limited; try again in ${error.retryAfterSeconds} s`);
  } else if (error instanceof APIError) {
    console.error(`${error.code} (HTTP ${error.status}): ${error.message} [${error.requestId}]`);
  } else if (error instanceof APIConnectionError) {
    console.error(`Cannot reach the service at ${fy.baseUrl}: ${error.message}`);
  } else if (error instanceof FangyanError) {
    console.error(error.message);
  } else {
    throw error;
  }
  process.exit(1);
}
