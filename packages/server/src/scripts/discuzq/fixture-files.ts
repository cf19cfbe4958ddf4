/*
 * The fake site directory of the Discuz! Q fixture: small real images (made with sharp) and a PDF-like file where a
 * v3 site keeps them (storage/app/public/{attachments,avatars,background}/...), so an importer can copy them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

export interface FixtureImage {
  /** Path under the site root, e.g. `storage/app/public/avatars/000/00/00/02.png`. */
  path: string;
  format: 'png' | 'jpeg';
  width: number;
  height: number;
  color: { r: number; g: number; b: number };
}

async function imageBytes(image: FixtureImage): Promise<Buffer> {
  const base = sharp({ create: { width: image.width, height: image.height, channels: 3, background: image.color } });
  return image.format === 'png' ? base.png().toBuffer() : base.jpeg({ quality: 80 }).toBuffer();
}

/** Writes the images and returns each one's byte size by path (attachments.file_size must match the file). */
export async function writeImages(root: string, images: readonly FixtureImage[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const image of images) {
    const bytes = await imageBytes(image);
    const file = join(root, image.path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, bytes);
    sizes.set(image.path, bytes.length);
  }
  return sizes;
}

/** A tiny but well-formed one-page PDF, so type sniffing sees `application/pdf`. */
export function pdfBytes(title: string): Buffer {
  const text = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R >> endobj
4 0 obj << /Length 44 >> stream
BT /F1 12 Tf 10 50 Td (${title}) Tj ET
endstream endobj
trailer << /Root 1 0 R >>
%%EOF
`;
  return Buffer.from(text, 'latin1');
}

export async function writeBytes(root: string, path: string, bytes: Buffer): Promise<number> {
  const file = join(root, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, bytes);
  return bytes.length;
}
