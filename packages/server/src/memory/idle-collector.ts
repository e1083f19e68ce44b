import v8 from "node:v8";
import vm from "node:vm";
import type { FastifyInstance } from "fastify";

/**
 * Node exposes no collection call without a flag; this sets the flag and
 * takes `gc` from a fresh context, once.
 */
export function fullCollection(): () => void {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

/**
 * A full garbage collection once the server has been idle for `idleMs` after
 * a burst of requests. V8 grows its heap under load and, in a server, never
 * gets the idle notification that would shrink it again, so the memory a
 * burst took stayed taken while nothing happened (measured in
 * docs/performance.md, Memory). Runs once per idle period, never under load.
 */
export function collectWhenIdle(app: FastifyInstance, idleMs: number, collect: () => void = fullCollection()): void {
  let inFlight = 0;
  let busySinceCollect = false;
  let timer: NodeJS.Timeout | undefined;
  app.addHook("onRequest", (_request, _reply, done) => {
    inFlight++;
    busySinceCollect = true;
    clearTimeout(timer);
    done();
  });
  app.addHook("onResponse", (_request, _reply, done) => {
    inFlight--;
    if (inFlight === 0 && busySinceCollect) {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (inFlight > 0) return;
        busySinceCollect = false;
        collect();
      }, idleMs);
      timer.unref();
    }
    done();
  });
  app.addHook("onClose", async () => clearTimeout(timer));
}
