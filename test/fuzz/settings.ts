// Run size and seed of the fuzzers: small and fixed under `npm test`, set by `npm run fuzz`
// (FUZZ_RUNS, FUZZ_SEED; a long run without FUZZ_SEED picks one and prints it to replay).

/** Number of generated requests: FUZZ_RUNS when set, `bounded` otherwise. */
export function fuzzRuns(bounded: number): number {
  const n = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(n) && n > 0 ? n : bounded;
}

const FIXED_SEED = 20_250_601;
let chosen: number | null = null;

export function fuzzSeed(): number {
  if (chosen !== null) return chosen;
  const env = process.env.FUZZ_SEED;
  if (env === 'random') {
    chosen = Math.floor(Math.random() * 2 ** 31);
    console.log(`fuzz seed ${chosen} (replay with FUZZ_SEED=${chosen})`);
  } else {
    chosen = env && Number.isInteger(Number(env)) ? Number(env) : FIXED_SEED;
  }
  return chosen;
}
