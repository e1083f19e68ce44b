export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
}

/** `clients` loops, each sending `perClient` requests one after another. */
export async function underLoad(
  clients: number,
  perClient: number,
  request: (client: number, i: number) => Promise<void>,
): Promise<LoadResult> {
  let errors = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; i < perClient; i++) {
        await request(client, i).catch(() => {
          errors++;
        });
      }
    }),
  );
  return { requests: clients * perClient, errors, seconds: (performance.now() - start) / 1000 };
}
