import { z } from 'zod';
import { base64Image, imageFile } from './fields';

/** POST /v1/demo-compress: only the image, no options. */
export const demoJsonBody = z.strictObject({ image: base64Image });
export const demoMultipartBody = z.strictObject({ image: imageFile });
