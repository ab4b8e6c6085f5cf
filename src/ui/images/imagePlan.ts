// What to do with an image the person attaches, decided from its bytes alone (pure, so it is
// tested without a canvas): which format it really is, whether it must be scaled down, and in what
// format it is sent. The pixels are handled by downscale.ts.
import { downscaleTarget, type Size } from "../../core/imageSize";

/** What every provider here accepts (Anthropic's list; OpenAI and Ollama take these too). */
export const ACCEPTED_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export type AcceptedType = (typeof ACCEPTED_TYPES)[number];

/** The format by its magic bytes: a file's name or the clipboard's claim is not trusted. */
export function sniffImageType(bytes: Uint8Array): AcceptedType | undefined {
	const at = (i: number): number => bytes[i] ?? -1;
	if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) return "image/png";
	if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return "image/jpeg";
	if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x38) return "image/gif";
	const ascii = (from: number, to: number): string => String.fromCharCode(...bytes.subarray(from, to));
	if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
	return undefined;
}

/** A GIF this small and within the size limits is sent as it is (animation and all; models read its first frame). */
export const GIF_AS_IS_BYTES = 1024 * 1024;
/** JPEG quality for photos scaled down: visually lossless for a model, a fraction of PNG's bytes. */
export const JPEG_QUALITY = 0.85;

export interface ImagePlan {
	/** The size it is sent at. */
	target: Size;
	/** Keep the file's bytes as they are (already small enough, in a format every provider reads). */
	asIs: boolean;
	/** When not as is: the format to encode to. */
	encodeAs: "image/jpeg" | "image/png";
}

/**
 * The plan for an image of `type`, `size` (as decoded, orientation applied) and `bytes`:
 * - within the limits, a PNG, JPEG or small GIF goes as is: re-encoding would only lose quality or add bytes;
 * - WebP, though within the limits, becomes PNG (lossless): some local vision models cannot read WebP;
 * - larger ones are scaled down: photos (JPEG) to JPEG, everything else (screenshots, diagrams,
 *   transparency) to PNG, and a large GIF to its first frame as PNG.
 */
export function planImage(type: AcceptedType, size: Size, bytes: number): ImagePlan {
	const target = downscaleTarget(size);
	const fits = target.width === Math.round(size.width) && target.height === Math.round(size.height);
	const encodeAs = type === "image/jpeg" ? "image/jpeg" : "image/png";
	if (fits && (type === "image/png" || type === "image/jpeg")) return { target, asIs: true, encodeAs };
	if (fits && type === "image/gif" && bytes <= GIF_AS_IS_BYTES) return { target, asIs: true, encodeAs };
	return { target, asIs: false, encodeAs };
}

/** A file name for the stored attachment: the original's base name, safe for the vault, with the sent format's extension. */
export function attachmentName(original: string, mediaType: string, now: Date): string {
	const ext = mediaType === "image/jpeg" ? "jpg" : (mediaType.split("/")[1] ?? "png");
	const base = original.replace(/\.[^./\\]*$/, "").replace(/[\\/:*?"<>|#^[\]]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 60);
	const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
	return `${base === "" || base === "image" ? "Pasted image" : base} ${stamp}.${ext}`;
}
