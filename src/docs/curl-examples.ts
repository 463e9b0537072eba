/**
 * Shell examples shown beside each operation (the x-codeSamples convention of Redoc and others).
 * $BASE_URL and $API_KEY are shell variables so the commands paste as they are. Base64 JSON is piped to
 * curl (`-d @-`, which also drops the newlines GNU base64 wraps with): a photo's base64 is longer than one
 * command-line argument may be, and `base64 < file` is the same on Linux and macOS.
 * packages/e2e/examples.e2e.ts runs every one of them against wrangler dev.
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
      '{ printf \'{"format": "webp", "image": "\'; base64 < logo.png; printf \'"}\'; } |\n  curl "$BASE_URL/v1/compress" \\\n  -H "X-API-Key: $API_KEY" -H "Content-Type: application/json" \\\n  -d @- -D - -o logo.min.webp',
    ),
    sample(
      'Image at a URL',
      'curl "$BASE_URL/v1/compress" \\\n  -H "X-API-Key: $API_KEY" -H "Content-Type: application/json" \\\n  -d \'{"url": "https://example.com/photo.jpg", "maxWidth": 1200}\' \\\n  -D - -o photo.min.jpg',
    ),
    sample(
      'A 400x400 thumbnail, cut around a point',
      'curl "$BASE_URL/v1/compress" \\\n  -H "X-API-Key: $API_KEY" \\\n  -F file=@photo.jpg -F width=400 -F height=400 -F fit=cover -F gravity=0.5x0.33 \\\n  -D - -o thumb.jpg',
    ),
    sample(
      'Keep the copyright and the date taken',
      'curl "$BASE_URL/v1/compress" \\\n  -H "X-API-Key: $API_KEY" \\\n  -F file=@photo.jpg -F preserve=copyright,creation \\\n  -D - -o photo.min.jpg',
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
      '{ printf \'{"image": "\'; base64 < photo.jpg; printf \'"}\'; } |\n  curl "$BASE_URL/v1/demo-compress" -H "Content-Type: application/json" \\\n  -d @- -D - -o photo.min.jpg',
    ),
  ],
  usage: [sample('curl', 'curl "$BASE_URL/v1/usage" -H "X-API-Key: $API_KEY"')],
};
