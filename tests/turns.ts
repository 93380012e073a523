/**
 * Runs `work`, counting the turns of the event loop other work had meanwhile: a long task done
 * in one piece gives none, one that gives way between pieces gives one per piece.
 */
export async function countingTurns<T>(
  work: () => Promise<T>,
): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let working = true;
  const count = () => {
    if (!working) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  try {
    const value = await work();
    return { value, turns };
  } finally {
    working = false;
  }
}
