/**
 * A PLATFORM_A number's throughput: how many messages a second the provider accepts from it before
 * refusing with 130429. The provider reports a level on the phone number node (`throughput.level`);
 * the channel stores it as messages a second (channels.throughput_mps), null when unknown.
 */
const DEFAULT_THROUGHPUT_MPS = 80;
const HIGH_THROUGHPUT_MPS = 1_000;

/** STANDARD → 80, HIGH → 1000; NOT_APPLICABLE or a level we do not know → null (the default applies). */
export function throughputMpsOfLevel(level: string | null): number | null {
  if (level === "HIGH") return HIGH_THROUGHPUT_MPS;
  if (level === "STANDARD") return DEFAULT_THROUGHPUT_MPS;
  return null;
}

/** Messages a second to pace a channel's sends at: what the provider reported, else the 80 default. */
export function channelThroughput(channel: { throughputMps: number | null }): number {
  const mps = channel.throughputMps;
  return mps !== null && Number.isInteger(mps) && mps > 0 ? mps : DEFAULT_THROUGHPUT_MPS;
}
