/**
 * Whether `work` (when there is any) finishes within `timeoutMs`: a graceful
 * stop waits this long for what is under way, then lets the process go.
 */
export async function finishesWithin(work: Promise<unknown> | null, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    (work ?? Promise.resolve()).then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
  ]);
  clearTimeout(timer);
  return finished;
}
