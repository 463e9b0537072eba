// Generated from public/openapi.json by packages/client/scripts/generate-types.mjs: do not edit.
// Run `npm run build:openapi` at the repository root after changing the API.

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health check
         * @description No key needed.
         */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/compress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Compress an image
         * @description One of a multipart `file`, JSON `image` (base64) or JSON `url` is required; when both `url` and `image`
         *     are given, `url` wins. Images up to 10 MB. Format `auto` keeps the input format, or returns WebP or AVIF when
         *     the `Accept` header lists `image/webp` or `image/avif` and that is smaller (`*\/*` alone does not opt in); an AVIF that would
         *     not fit the request's memory or CPU budget is not tried. Large AVIF images are written as a grid of cells. The result is never larger
         *     than the input unless a resize or format change was asked for. Only successful compressions count toward the monthly quota.
         */
        post: operations["compress"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/demo-compress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Try compression without a key
         * @description Quality 80, format `auto`, no other options. 5 requests per hour per client (IPv6 per /64) and
         *     30 per network (IPv4 /24, IPv6 /48); every request counts, refused ones included, but a 429 does not, nor a 503 (the engine was busy).
         *     Files up to 5 MB. The client is the address Cloudflare sets in `CF-Connecting-IP` (an IPv4-mapped
         *     IPv6 address is its IPv4 address); a missing or unparsable one is 400 `bad_request`. For people on this site and
         *     for scripts, not for other websites: a browser request sent from another site (`Sec-Fetch-Site` other than
         *     `same-origin`, or a foreign `Origin`) is 403 `forbidden` and not counted.
         */
        post: operations["demoCompress"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This month's usage of your account
         * @description The account's successful compressions and bytes this calendar month (UTC), all its keys together (what the monthly quota counts), and the calling key's own share in `key`. The quota resets at 00:00 UTC on the 1st.
         */
        get: operations["usage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description One of `image` or `url` is required. */
        CompressRequest: {
            /** @description Base64-encoded image, with or without a data URI prefix */
            image?: string;
            /** @description Public https image URL; takes priority over image */
            url?: string;
            /**
             * @description Visual quality, from 1 (smallest file) to 100 (best look). The default, 80, suits most photos; 60 to 75 makes smaller files where fine detail matters less. The same number gives about the same look in JPEG, WebP, AVIF and PNG output. For PNG, 100 is lossless; below 100 the colours are reduced to a palette of at most 256, and a graphic with few colours comes back exact.
             * @default 80
             */
            quality: number;
            /**
             * @description auto keeps the input format, or returns WebP or AVIF when Accept lists image/webp or image/avif and it is smaller
             * @default auto
             * @enum {string}
             */
            format: "auto" | "jpeg" | "png" | "webp" | "avif";
            /** @description Largest width of the result, in pixels, as the image is displayed (after its EXIF rotation). A larger image is scaled down to fit, keeping its aspect ratio; a smaller one is never enlarged. */
            maxWidth?: number;
            /** @description Largest height of the result, in pixels, as the image is displayed (after its EXIF rotation). A larger image is scaled down to fit, keeping its aspect ratio; a smaller one is never enlarged. */
            maxHeight?: number;
            /** @description The box's width, in pixels (1 to 12000), as the image is displayed (after its EXIF rotation); `fit` says how the image goes into the box. Not with maxWidth/maxHeight. */
            width?: number;
            /** @description The box's height, in pixels (1 to 12000), as the image is displayed (after its EXIF rotation); `fit` says how the image goes into the box. Not with maxWidth/maxHeight. */
            height?: number;
            /**
             * @description How the image goes into the width x height box. `scale-down` (default): the largest size inside the box with the image's aspect, never enlarged. `contain`: the same, enlarged if need be. `cover`: exactly the box, scaled to cover it and the overflow cut off by `gravity`. `crop`: as cover but never enlarged (a source smaller than the box on both sides is kept whole). `aspect-crop`: cut to the box's aspect by `gravity`, then scaled down to fit if larger. `pad`: as contain, then padded with `background` to exactly the box, placed by `gravity`. scale-down and contain take one side alone; the others need both.
             * @enum {string}
             */
            fit?: "scale-down" | "contain" | "cover" | "crop" | "aspect-crop" | "pad";
            /** @description Which part of the image a cut keeps (cover, crop, aspect-crop) and where pad places it: center, top, bottom, left, right, top-left, top-right, bottom-left, bottom-right, auto (default center), or a focal point `XxY`, fractions from 0 to 1 of the displayed image's width and height (e.g. `0.25x0.6`), on which the cut is centred as nearly as the image allows. `auto` keeps what draws the eye: what is in focus (fine detail), and its saturated colours and skin tones (pad centres). Has no effect with a fit that cuts nothing. */
            gravity?: string;
            /** @description The colour of pad's margins, and what transparency is flattened onto for JPEG: `#rgb`, `#rrggbb`, `#rrggbbaa` or `transparent` (default white). A transparent or translucent background keeps its alpha in PNG, WebP and AVIF, and is flattened onto white for JPEG. */
            background?: string;
            /** @description Metadata to keep besides orientation and colour: `copyright` (EXIF Copyright and Artist, IPTC by-line, credit and copyright notice, XMP rights, creators and licences), `creation` (the date taken: EXIF DateTimeOriginal and DateTimeDigitized with their offsets and fractions, XMP and IPTC creation dates), `location` (the EXIF GPS directory, XMP GPS, IPTC and XMP place names; never kept unless asked). Rebuilt into every output format's own place; at most 64 KiB. Default: none. */
            preserve?: ("copyright" | "creation" | "location")[];
            /** @description false: the first frame of an animated input (GIF), whatever the format, with `X-Compression-Notes: first-frame`. Default true: every frame where the output keeps them, as an animated WebP (`format=webp`, or `auto` when Accept lists image/webp and it is smaller than the GIF), frame timings and loop count kept, the geometry applied to every frame, at most 50 MP of frames in all (413 past it); the first frame in other formats; with `auto` and WebP not accepted, an animated GIF comes back with its pixels untouched (`original-returned`). */
            anim?: boolean;
        };
        CompressMultipartRequest: {
            /**
             * Format: binary
             * @description Image file (JPEG, PNG, WebP or AVIF)
             */
            file: string;
            /**
             * @description Visual quality, from 1 (smallest file) to 100 (best look). The default, 80, suits most photos; 60 to 75 makes smaller files where fine detail matters less. The same number gives about the same look in JPEG, WebP, AVIF and PNG output. For PNG, 100 is lossless; below 100 the colours are reduced to a palette of at most 256, and a graphic with few colours comes back exact.
             * @default 80
             */
            quality: number;
            /**
             * @description auto keeps the input format, or returns WebP or AVIF when Accept lists image/webp or image/avif and it is smaller
             * @default auto
             * @enum {string}
             */
            format: "auto" | "jpeg" | "png" | "webp" | "avif";
            /** @description Largest width of the result, in pixels, as the image is displayed (after its EXIF rotation). A larger image is scaled down to fit, keeping its aspect ratio; a smaller one is never enlarged. */
            maxWidth?: number;
            /** @description Largest height of the result, in pixels, as the image is displayed (after its EXIF rotation). A larger image is scaled down to fit, keeping its aspect ratio; a smaller one is never enlarged. */
            maxHeight?: number;
            /** @description The box's width, in pixels (1 to 12000), as the image is displayed (after its EXIF rotation); `fit` says how the image goes into the box. Not with maxWidth/maxHeight. */
            width?: number;
            /** @description The box's height, in pixels (1 to 12000), as the image is displayed (after its EXIF rotation); `fit` says how the image goes into the box. Not with maxWidth/maxHeight. */
            height?: number;
            /**
             * @description How the image goes into the width x height box. `scale-down` (default): the largest size inside the box with the image's aspect, never enlarged. `contain`: the same, enlarged if need be. `cover`: exactly the box, scaled to cover it and the overflow cut off by `gravity`. `crop`: as cover but never enlarged (a source smaller than the box on both sides is kept whole). `aspect-crop`: cut to the box's aspect by `gravity`, then scaled down to fit if larger. `pad`: as contain, then padded with `background` to exactly the box, placed by `gravity`. scale-down and contain take one side alone; the others need both.
             * @enum {string}
             */
            fit?: "scale-down" | "contain" | "cover" | "crop" | "aspect-crop" | "pad";
            /** @description Which part of the image a cut keeps (cover, crop, aspect-crop) and where pad places it: center, top, bottom, left, right, top-left, top-right, bottom-left, bottom-right, auto (default center), or a focal point `XxY`, fractions from 0 to 1 of the displayed image's width and height (e.g. `0.25x0.6`), on which the cut is centred as nearly as the image allows. `auto` keeps what draws the eye: what is in focus (fine detail), and its saturated colours and skin tones (pad centres). Has no effect with a fit that cuts nothing. */
            gravity?: string;
            /** @description The colour of pad's margins, and what transparency is flattened onto for JPEG: `#rgb`, `#rrggbb`, `#rrggbbaa` or `transparent` (default white). A transparent or translucent background keeps its alpha in PNG, WebP and AVIF, and is flattened onto white for JPEG. */
            background?: string;
            /** @description Comma-separated, of copyright, creation, location. Metadata to keep besides orientation and colour: `copyright` (EXIF Copyright and Artist, IPTC by-line, credit and copyright notice, XMP rights, creators and licences), `creation` (the date taken: EXIF DateTimeOriginal and DateTimeDigitized with their offsets and fractions, XMP and IPTC creation dates), `location` (the EXIF GPS directory, XMP GPS, IPTC and XMP place names; never kept unless asked). Rebuilt into every output format's own place; at most 64 KiB. Default: none. */
            preserve?: string;
            /**
             * @description `true` or `false`. false: the first frame of an animated input (GIF), whatever the format, with `X-Compression-Notes: first-frame`. Default true: every frame where the output keeps them, as an animated WebP (`format=webp`, or `auto` when Accept lists image/webp and it is smaller than the GIF), frame timings and loop count kept, the geometry applied to every frame, at most 50 MP of frames in all (413 past it); the first frame in other formats; with `auto` and WebP not accepted, an animated GIF comes back with its pixels untouched (`original-returned`).
             * @enum {string}
             */
            anim?: "true" | "false";
        };
        DemoMultipartRequest: {
            /**
             * Format: binary
             * @description Image file (JPEG, PNG, WebP or AVIF)
             */
            image: string;
        };
        DemoJsonRequest: {
            /** @description Base64-encoded image, with or without a data URI prefix */
            image: string;
        };
        HealthResponse: {
            status: string;
            /** Format: date-time */
            timestamp: string;
        };
        UsageResponse: {
            /** @enum {string} */
            plan: "free" | "pro" | "business";
            /** @description The account's successful compressions this month, all its keys together, against its plan's monthly limit; resetAt is 00:00 UTC on the 1st */
            usage: {
                current: number;
                limit: number;
                /** Format: date-time */
                resetAt: string;
            };
            /** @description The account's bytes this month: sent, returned and saved */
            totals: {
                bytesIn: number;
                bytesOut: number;
                savedBytes: number;
                savedPercent: number;
            };
            /** @description The calling key's own share of the account's month */
            key: {
                /** @description The name given to the key in the dashboard */
                name: string | null;
                /** @description The first characters of the key, as the dashboard lists it */
                prefix: string;
                /** @description This key's successful compressions this month */
                requests: number;
                bytesIn: number;
                bytesOut: number;
            };
        };
        Error: {
            /** @enum {string} */
            error: "bad_request" | "unsupported_image" | "url_invalid" | "url_blocked" | "url_invalid_content" | "unauthorized" | "forbidden" | "not_found" | "request_timeout" | "file_too_large" | "image_too_large" | "url_too_large" | "rate_limited" | "quota_exceeded" | "internal_error" | "not_implemented" | "url_fetch_failed" | "service_unavailable" | "url_timeout";
            message: string;
        };
        RateLimitError: {
            /** @enum {string} */
            error: "rate_limited" | "quota_exceeded";
            message: string;
            /** Format: date-time */
            resetAt: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Size of the input image in bytes (decoded bytes for base64 input). */
        "X-Original-Size": number;
        /** @description Size of the returned image in bytes. */
        "X-Compressed-Size": number;
        /** @description round(100 × (original − compressed) / original), halves away from zero; negative only when a resize or format change made the output larger. */
        "X-Savings-Percent": number;
        /** @description Format of the returned image: `gif` only for a GIF returned with its pixels untouched (`original-returned`). */
        "X-Output-Format": "jpeg" | "png" | "webp" | "avif" | "gif";
        /** @description What was done, comma-separated, when anything was: `orientation-applied` (the EXIF orientation was applied to the pixels; the output has no orientation tag), `cropped` (part of the image was cut off: `X-Crop` says which window was kept), `resized` (scaled to fit the box of width/height or maxWidth/maxHeight, which refer to the image as displayed), `padded` (`fit=pad` added margins of `background`), `converted` (format change), `alpha-flattened` (transparency composited onto `background`, white by default, for JPEG), `icc-kept` (the colour profile was carried over), `lossless-recoded` (a JPEG comes back with its own DCT coefficients written again, progressive with optimised Huffman tables: the very same pixels in fewer bytes, when re-encoding would not have been smaller or kept every quantisation step of the input), `original-returned` (re-encoding would not have been smaller, nor re-coding: the input comes back with its metadata stripped; an animated GIF asked for with `auto` and WebP not accepted comes back so, its comments and application data other than the loop count stripped), `metadata-kept` (metadata `preserve` asked for is in the output), `metadata-truncated` (some of it was dropped: what is kept is capped at 64 KiB, the longest values going first), `format-kept-for-look` (`auto` kept the input's format: an accepted WebP or AVIF could not have the look of the input-format candidate within 2 SSIMULACRA2 points, e.g. a JPEG re-coded losslessly or re-quantised on its own steps), `first-frame` (an animated input, made of its first frame: the output is not WebP, or `anim=false`). */
        "X-Compression-Notes": string;
        /** @description When the image was cut (`fit` cover, crop or aspect-crop): `left,top,width,height`, the window taken from the source as displayed (after its EXIF rotation), in its pixels, so other renditions can be cut the same way. */
        "X-Crop": string;
        /** @description Demo requests this client has left in the current hour: the smaller of its own and its network's. */
        "X-Demo-Remaining": number;
        /** @description `Accept` when format is `auto`: the output format may depend on that header. */
        Vary: string;
        /** @description IETF draft field: every window as `"name";q=<quota>;w=<seconds>` (minute and month for a key; for the demo, hour per client and network per IPv4 /24 or IPv6 /48). */
        "RateLimit-Policy": string;
        /** @description IETF draft field: every window as `"name";r=<remaining>;t=<seconds to reset>`. */
        RateLimit: string;
        /** @description Older form: quota of the first window (per minute for a key, per hour for the demo). */
        "RateLimit-Limit": number;
        /** @description Older form: requests left in the first window. */
        "RateLimit-Remaining": number;
        /** @description Older form: seconds until the first window frees a request. */
        "RateLimit-Reset": number;
        /** @description Seconds to wait before trying again (every 429, and 503 `service_unavailable`). */
        "Retry-After": number;
        /** @description Where the answer's time went, on every answer of the API, errors included: one `d1` or `do` entry per round trip to shared state made before the answer (D1, or a Durable Object), in order, with its `dur` in milliseconds and a `desc` naming the call (e.g. `do;dur=3.2;desc="ACCOUNT_GATE.admit"`), then the stages the request reached: `auth` (the key to its account), `limits` (the account's key state, minute window and quota slot, or the demo's windows), `fetch` (an image at a `url`), `queue` (waiting for the engine behind other requests, in coarse steps: 0 under 10 ms, then 10, 20, 50, 100, 200, 500 ms, 1 s and so on), `engine` (the image jobs), and `total` (with the wait as shown). A keyed request whose key the serving isolate has seen makes one round trip before its answer; the key's lookup in D1 (`d1;desc="SELECT api_keys"`, made only by an isolate that has not seen the key) is listed either way, with `dur=0` when it was not made. */
        "Server-Timing": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service is up. */
            200: {
                headers: {
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthResponse"];
                };
            };
            /** @description `internal_error`: An unexpected error occurred. */
            500: {
                headers: {
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    compress: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompressRequest"];
                "multipart/form-data": components["schemas"]["CompressMultipartRequest"];
            };
        };
        responses: {
            /** @description The compressed image. */
            200: {
                headers: {
                    "X-Original-Size": components["headers"]["X-Original-Size"];
                    "X-Compressed-Size": components["headers"]["X-Compressed-Size"];
                    "X-Savings-Percent": components["headers"]["X-Savings-Percent"];
                    "X-Output-Format": components["headers"]["X-Output-Format"];
                    "X-Compression-Notes": components["headers"]["X-Compression-Notes"];
                    "X-Crop": components["headers"]["X-Crop"];
                    Vary: components["headers"]["Vary"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "image/jpeg": string;
                    "image/png": string;
                    "image/webp": string;
                };
            };
            /**
             * @description `bad_request`: The request is invalid.
             *
             *     `unsupported_image`: The data is not a supported, decodable, still JPEG, PNG, WebP or AVIF image.
             *
             *     `url_invalid`: The url must be a valid https URL without credentials.
             *
             *     `url_blocked`: The url points to a private or internal address, or to a port other than 443.
             *
             *     `url_invalid_content`: The url did not return a supported image.
             */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: A valid X-API-Key header is required. */
            401: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `request_timeout`: The request body did not arrive in time: within 30 s, and at 64 KiB/s or more after its first 5 s. Nothing was charged. */
            408: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `file_too_large`: The image file is too large.
             *
             *     `image_too_large`: The image dimensions are too large to process.
             *
             *     `url_too_large`: The image at the url exceeds 10 MB.
             */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `rate_limited`: Rate limit exceeded.
             *
             *     `quota_exceeded`: Monthly quota exceeded.
             */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitError"];
                };
            };
            /** @description `internal_error`: An unexpected error occurred. */
            500: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `url_fetch_failed`: Fetching the url failed. */
            502: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: A service the API depends on is unavailable, or too many images are waiting for the engine; nothing was charged. Try again after Retry-After. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `url_timeout`: Fetching the url timed out after 5000 ms. */
            504: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    demoCompress: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["DemoMultipartRequest"];
                "application/json": components["schemas"]["DemoJsonRequest"];
            };
        };
        responses: {
            /** @description The compressed image. */
            200: {
                headers: {
                    "X-Original-Size": components["headers"]["X-Original-Size"];
                    "X-Compressed-Size": components["headers"]["X-Compressed-Size"];
                    "X-Savings-Percent": components["headers"]["X-Savings-Percent"];
                    "X-Output-Format": components["headers"]["X-Output-Format"];
                    "X-Compression-Notes": components["headers"]["X-Compression-Notes"];
                    "X-Demo-Remaining": components["headers"]["X-Demo-Remaining"];
                    Vary: components["headers"]["Vary"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "image/*": string;
                };
            };
            /**
             * @description `bad_request`: The request is invalid.
             *
             *     `unsupported_image`: The data is not a supported, decodable, still JPEG, PNG, WebP or AVIF image.
             */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Demo-Remaining": components["headers"]["X-Demo-Remaining"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: Cross-site requests are refused. */
            403: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Demo-Remaining": components["headers"]["X-Demo-Remaining"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `request_timeout`: The request body did not arrive in time: within 30 s, and at 64 KiB/s or more after its first 5 s. Nothing was charged. */
            408: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Demo-Remaining": components["headers"]["X-Demo-Remaining"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `file_too_large`: The image file is too large.
             *
             *     `image_too_large`: The image dimensions are too large to process.
             */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Demo-Remaining": components["headers"]["X-Demo-Remaining"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Demo-Remaining": components["headers"]["X-Demo-Remaining"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitError"];
                };
            };
            /** @description `internal_error`: An unexpected error occurred. */
            500: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Demo-Remaining": components["headers"]["X-Demo-Remaining"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: A service the API depends on is unavailable, or too many images are waiting for the engine; nothing was charged. Try again after Retry-After. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Demo-Remaining": components["headers"]["X-Demo-Remaining"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    usage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Plan, usage and byte totals. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageResponse"];
                };
            };
            /** @description `unauthorized`: A valid X-API-Key header is required. */
            401: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitError"];
                };
            };
            /** @description `internal_error`: An unexpected error occurred. */
            500: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: A service the API depends on is unavailable, or too many images are waiting for the engine; nothing was charged. Try again after Retry-After. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
