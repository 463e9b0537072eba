/** Scales down to fit maxWidth x maxHeight, keeping the aspect ratio; never scales up. */
export function fitSize(
  width: number,
  height: number,
  maxWidth: number | undefined,
  maxHeight: number | undefined,
): { width: number; height: number } {
  const scale = Math.min(1, (maxWidth ?? width) / width, (maxHeight ?? height) / height);
  if (scale === 1) return { width, height };
  return {
    width: Math.min(maxWidth ?? width, Math.max(1, Math.round(width * scale))),
    height: Math.min(maxHeight ?? height, Math.max(1, Math.round(height * scale))),
  };
}
