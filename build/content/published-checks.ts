// What a document is checked for once it is published, by the build clock:
// a draft or a post scheduled for later may be unfinished, so its images'
// alt text (D44) and its `updated` day (D61) are judged when it goes out.
import type { Post } from '../core/model.js';
import type { FileImage, Read } from './kinds.js';
import type { Problem } from './problems.js';

/** Each image without alt text (a reference-style definition is no image itself). */
export function missingAltText(images: readonly FileImage[]): Problem[] {
  return images
    .filter((image) => image.label === undefined && !image.alt.trim())
    .map((image) => ({
      file: image.file,
      line: image.line,
      column: image.column,
      message: `The image ${image.src} has no alt text.`,
      hint: `Say what it shows, e.g. ![Pipeline from Markdown to HTML](${image.src}): screen readers and agents read the alt text instead of the image.`,
    }));
}

/** The warning for a post whose `updated` day is after the build day, or null. */
export function updatedAfter(read: Read<Post>, file: string, today: string): Problem | null {
  const { updated } = read.value;
  if (!updated || updated <= today || !read.updatedAt) return null;
  return {
    file,
    ...read.updatedAt,
    message: `\`updated\` (${updated}) is after the build day (${today}): the sitemap, the feeds, the structured data and the change log say the post changed on a day still to come.`,
    hint: `Set updated to the day of the last real change, ${today} or before.`,
  };
}
