// Regenerates the PDFs of tests/fixtures/pdf/ from the texts in tests/fixtures/pdf/src/ (all written
// for these tests, CC0): `npx tsx scripts/make-pdf-fixtures.ts`. It needs groff with its PDF
// device (Debian: `apt-get install groff`), ImageMagick's `convert` (for PNGs), and the Noto CJK fonts
// (Debian: fonts-noto-cjk); pdf-lib and its fontkit are devDependencies. Dates are pinned (groff
// and ImageMagick read SOURCE_DATE_EPOCH; pdf-lib is given them), so a run on the same tools gives
// the same bytes. The commands are the ones tests/fixtures/pdf/README.md lists.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, rgb, type PDFFont } from "pdf-lib";

const DIR = join(import.meta.dirname, "..", "tests", "fixtures", "pdf");
const SRC = join(DIR, "src");
const CJK_FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";
/** The Simplified Chinese face of the collection (its kana serve the Japanese page too). */
const CJK_FACE = "NotoSansCJKsc-Regular";
const PINNED = new Date("2026-01-01T00:00:00Z");
const env = { ...process.env, SOURCE_DATE_EPOCH: String(PINNED.getTime() / 1000) };

/** Pages of a text file: separated by a line holding only `\f`. */
function pagesOf(file: string): string[][] {
	return readFileSync(join(SRC, file), "utf8")
		.split(/^\\f$/m)
		.map((page) => page.split("\n").filter((line) => line.trim() !== ""));
}

/** groff's ms macros to PDF: `groff -Tpdf -ms src/NAME.ms > NAME.pdf`. */
function groff(name: string): void {
	const pdf = execFileSync("groff", ["-Tpdf", "-ms", join(SRC, `${name}.ms`)], { env, maxBuffer: 1 << 24 });
	writeFileSync(join(DIR, `${name}.pdf`), pdf);
}

/** Lines of `text` no wider than `width` at `size`, cut between characters (CJK has no spaces). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
	const lines: string[] = [];
	let line = "";
	for (const ch of text) {
		if (line !== "" && font.widthOfTextAtSize(line + ch, size) > width) {
			lines.push(line);
			line = "";
		}
		line += ch;
	}
	if (line !== "") lines.push(line);
	return lines;
}

/** The CJK pages with pdf-lib, the font subset and embedded (a ToUnicode map keeps the text readable). */
async function cjk(): Promise<void> {
	const doc = await PDFDocument.create();
	// The collection holds several faces: fontkit is asked for one by its PostScript name.
	doc.registerFontkit({ create: (data: Uint8Array) => fontkit.create(data, CJK_FACE) });
	const font = await doc.embedFont(readFileSync(CJK_FONT), { subset: true });
	doc.setTitle("港口日志");
	doc.setCreator("scripts/make-pdf-fixtures.ts");
	doc.setProducer("pdf-lib");
	doc.setCreationDate(PINNED);
	doc.setModificationDate(PINNED);
	for (const lines of pagesOf("cjk.txt")) {
		const page = doc.addPage([595, 842]);
		let y = 770;
		lines.forEach((paragraph, k) => {
			const size = k === 0 ? 20 : 12;
			for (const line of wrap(paragraph, font, size, 595 - 2 * 72)) {
				page.drawText(line, { x: 72, y, size, font, color: rgb(0, 0, 0) });
				y -= size * 1.6;
			}
			y -= 8;
		});
	}
	writeFileSync(join(DIR, "cjk.pdf"), await doc.save());
}

/**
 * Pages drawn as images (no text layer): `convert` draws each page's lines to a PNG, and pdf-lib
 * puts each PNG on a page of its own (ImageMagick's policy here refuses to write PDFs itself).
 */
async function scanned(): Promise<void> {
	const tmp = mkdtempSync(join(tmpdir(), "scan-"));
	try {
		const doc = await PDFDocument.create();
		doc.setCreator("scripts/make-pdf-fixtures.ts");
		doc.setProducer("ImageMagick and pdf-lib");
		doc.setCreationDate(PINNED);
		doc.setModificationDate(PINNED);
		for (const [k, lines] of pagesOf("scanned.txt").entries()) {
			const png = join(tmp, `page${k + 1}.png`);
			execFileSync("convert", ["-size", "850x1100", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "22", "-fill", "black", "-annotate", "+80+140", lines.join("\n"), "-type", "Grayscale", "-depth", "8", "-strip", png], { env });
			const image = await doc.embedPng(readFileSync(png));
			// 100 pixels an inch: a US Letter page.
			const page = doc.addPage([(850 * 72) / 100, (1100 * 72) / 100]);
			page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
		}
		writeFileSync(join(DIR, "scanned.pdf"), await doc.save());
	} finally {
		rmSync(tmp, { recursive: true, force: true });
	}
}

async function main(): Promise<void> {
	groff("plain");
	groff("two-columns");
	await cjk();
	await scanned();
	console.log(`Wrote plain.pdf, two-columns.pdf, cjk.pdf and scanned.pdf to ${DIR}.`);
}

void main();
