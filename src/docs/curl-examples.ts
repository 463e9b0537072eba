/**
 * Shell examples shown beside each operation (the x-codeSamples convention of Redoc and others).
 * $BASE_URL and $API_KEY are shell variables so the commands paste as they are.
 */
const sample = (label: string, source: string) => ({ lang: 'shell', label, source });

export const CURL = {
  health: [sample('curl', 'curl "$BASE_URL/health"')],
  compress: [
    sample(
      'Upload a file',
      'curl "$BASE_URL/v1/compress" \\\n  -H "X-API-Key: $API_KEY" \\\n  -F file=@photo.jpg -F quality=75 -F maxWidth=1600 \\\n  -D - -o photo.min.jpg',
    ),
    sample(
      'Base64 in JSON',
      'curl "$BASE_URL/v1/compress" \\\n  -H "X-API-Key: $API_KEY" -H "Content-Type: application/json" \\\n  -d "{\\"image\\": \\"$(base64 -w0 logo.png)\\", \\"format\\": \\"webp\\"}" \\\n  -D - -o logo.min.webp',
    ),
    sample(
      'Image at a URL',
      'curl "$BASE_URL/v1/compress" \\\n  -H "X-API-Key: $API_KEY" -H "Content-Type: application/json" \\\n  -d \'{"url": "https://example.com/photo.jpg", "maxWidth": 1200}\' \\\n  -D - -o photo.min.jpg',
    ),
    sample(
      'Let auto pick WebP',
      'curl "$BASE_URL/v1/compress" \\\n  -H "X-API-Key: $API_KEY" -H "Accept: image/webp,*/*" \\\n  -F file=@photo.png \\\n  -D - -o photo.min',
    ),
  ],
  demo: [
    sample('Upload a file', 'curl "$BASE_URL/v1/demo-compress" -F image=@photo.jpg -D - -o photo.min.jpg'),
    sample(
      'Base64 in JSON',
      'curl "$BASE_URL/v1/demo-compress" -H "Content-Type: application/json" \\\n  -d "{\\"image\\": \\"$(base64 -w0 photo.jpg)\\"}" -D - -o photo.min.jpg',
    ),
  ],
  usage: [sample('curl', 'curl "$BASE_URL/v1/usage" -H "X-API-Key: $API_KEY"')],
};
