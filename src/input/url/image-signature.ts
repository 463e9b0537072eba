/**
 * Whether bytes start like one of the three supported formats. A cheap first gate on fetched bodies
 * (servers mislabel HTML error pages as image/png); the pipeline parses the full header afterwards.
 */
export function hasImageSignature(bytes: Uint8Array): boolean {
  const startsWith = (signature: number[], at = 0) => signature.every((byte, i) => bytes[at + i] === byte);
  const jpeg = startsWith([0xff, 0xd8, 0xff]);
  const png = startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const webp = startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8); // "RIFF" size "WEBP"
  return jpeg || png || webp;
}
