// Texts for fitting and validating the token model (scripts/fit-token-model.ts): the dev corpus, the
// other-script fixtures, and synthetic texts made from them with a seeded generator — slices,
// shuffled words, mixtures, code, Markdown, URLs, JSON, base64, hex, numbers, emoji, and words of
// random letters in every script the class table knows.
import { loadDevSamples, loadOtherScriptSamples } from "../tests/fixtures/tokens/samples";
import { seededRandom } from "../tests/support/random";

export interface FitText {
	/** Where the text comes from: a dev category, an other-script group, or a synthetic kind. */
	kind: string;
	text: string;
	/** True for the dev corpus and the fixtures: the texts the targets are judged on. */
	target: boolean;
}

export function targetTexts(): FitText[] {
	return [
		...loadDevSamples().map((s) => ({ kind: s.group, text: s.text, target: true })),
		...loadOtherScriptSamples().map((s) => ({ kind: s.group, text: s.text, target: true })),
	];
}

/** Letter ranges per script, for words of random letters (worst-case text in that script). */
const SCRIPT_RANGES: Record<string, [number, number]> = {
	"rand-cyrillic": [0x430, 0x44f],
	"rand-greek": [0x3b1, 0x3c9],
	"rand-arabic": [0x627, 0x64a],
	"rand-hebrew": [0x5d0, 0x5ea],
	"rand-devanagari": [0x915, 0x939],
	"rand-thai": [0xe01, 0xe2e],
	"rand-hangul": [0xac00, 0xd7a3],
	"rand-han": [0x4e00, 0x9fa5],
	"rand-kana": [0x3041, 0x3096],
	"rand-armenian": [0x561, 0x586],
	"rand-georgian": [0x10d0, 0x10f0],
	"rand-ethiopic": [0x1200, 0x1350],
	"rand-latin-ext": [0x100, 0x17f],
	"rand-latin1": [0xe0, 0xff],
	"rand-tamil": [0xb95, 0xbb9],
	"rand-telugu": [0xc15, 0xc39],
	"rand-gurmukhi": [0xa15, 0xa39],
	"rand-myanmar": [0x1000, 0x102a],
	"rand-tibetan": [0xf40, 0xf6c],
	"rand-syriac": [0x710, 0x72f],
	"rand-cherokee": [0x13a0, 0x13f4],
	"rand-symbols": [0x2190, 0x22ff],
	"rand-box": [0x2500, 0x257f],
	"rand-braille": [0x2800, 0x28ff],
	"rand-emoji": [0x1f300, 0x1f64f],
	"rand-cjk-ext": [0x20000, 0x2a6df],
	"rand-math-letters": [0x1d400, 0x1d6a5],
	"rand-hieroglyphs": [0x13000, 0x1342e],
};

const EMOJI = ["😀", "🎉", "👍🏽", "👨‍👩‍👧", "🇫🇷", "❤️", "✅", "🚀", "🙂", "🔥", "☕", "🏳️‍🌈", "🤖", "📚", "✨"];

export function syntheticTexts(seed: number, count: number): FitText[] {
	const random = seededRandom(seed);
	const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
	const targets = targetTexts();
	const words = targets.flatMap((t) => t.text.split(/\s+/).filter((w) => w !== ""));
	const english = targets.filter((t) => t.kind === "prose-en").flatMap((t) => t.text.match(/[A-Za-z]+/g) ?? []);
	const slice = (text: string, min: number, max: number): string => {
		const chars = [...text];
		const len = int(min, max);
		const start = int(0, Math.max(0, chars.length - len));
		return chars.slice(start, start + len).join("");
	};
	const randomWord = (from: number, to: number, len: number): string =>
		Array.from({ length: len }, () => String.fromCodePoint(int(from, to))).join("");
	const makers: Record<string, () => string> = {
		slice: () => slice(pick(targets).text, 8, 500),
		shuffle: () => {
			const ws = pick(targets).text.split(/\s+/).filter((w) => w !== "");
			return Array.from({ length: int(3, 60) }, () => pick(ws)).join(random() < 0.8 ? " " : "\n");
		},
		mix: () => `${slice(pick(targets).text, 5, 200)}${pick([" ", "\n", ": ", ""])}${slice(pick(targets).text, 5, 200)}`,
		words: () => Array.from({ length: int(3, 80) }, () => pick(words)).join(" "),
		camel: () =>
			Array.from({ length: int(3, 30) }, () =>
				Array.from({ length: int(1, 4) }, (_, k) => {
					const w = pick(english).toLowerCase();
					return k === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1);
				}).join(pick(["", "", "_"])),
			).join(pick([" ", ".", "(", ", ", "\n    "])),
		compound: () => Array.from({ length: int(2, 20) }, () => Array.from({ length: int(2, 5) }, () => pick(english).toLowerCase()).join("")).join(" "),
		caps: () => Array.from({ length: int(3, 30) }, () => pick(english).toUpperCase()).join(pick([" ", "_", "\n"])),
		base64: () => Buffer.from(Array.from({ length: int(6, 600) }, () => int(0, 255))).toString("base64"),
		hex: () => Array.from({ length: int(1, 12) }, () => randomHex(int(8, 64))).join(pick([" ", "\n", "-", ", "])),
		numbers: () =>
			Array.from({ length: int(3, 60) }, () =>
				pick([
					() => String(int(0, 9999999)),
					() => (random() * 1000).toFixed(int(1, 4)),
					() => `${int(1990, 2030)}-${String(int(1, 12)).padStart(2, "0")}-${String(int(1, 28)).padStart(2, "0")}`,
					() => int(1, 999999).toLocaleString("en-US"),
				])(),
			).join(pick([" ", ", ", "\n", " | "])),
		urls: () =>
			Array.from({ length: int(1, 8) }, () =>
				`https://${pick(english).toLowerCase()}.${pick(["com", "org", "io", "de"])}/${Array.from({ length: int(1, 4) }, () => pick(english).toLowerCase()).join("/")}${random() < 0.5 ? `?${pick(english).toLowerCase()}=${int(0, 9999)}` : ""}`,
			).join(pick([" ", "\n", ") [x]("])),
		json: () =>
			JSON.stringify(
				Object.fromEntries(Array.from({ length: int(1, 12) }, () => [pick(english).toLowerCase(), random() < 0.5 ? int(0, 99999) : pick(words)])),
				null,
				random() < 0.5 ? 2 : undefined,
			),
		markdown: () =>
			Array.from({ length: int(2, 12) }, () =>
				pick([
					() => `## ${slice(pick(targets).text, 5, 40)}`,
					() => `- ${slice(pick(targets).text, 5, 80)}`,
					() => `| ${pick(words)} | ${pick(words)} | ${int(0, 999)} |`,
					() => `[${pick(english)}](https://${pick(english).toLowerCase()}.org/${pick(english)})`,
					() => `\`\`\`\n${slice(pick(targets).text, 10, 120)}\n\`\`\``,
					() => `> **${pick(english)}** _${pick(english)}_ \`${pick(english)}\``,
				])(),
			).join("\n"),
		emoji: () => Array.from({ length: int(2, 40) }, () => (random() < 0.5 ? pick(EMOJI) : pick(words))).join(pick([" ", "", "\n"])),
		punctuation: () =>
			Array.from({ length: int(2, 20) }, () => pick(["-", "=", "*", ".", "#", "~", "_", " ", "—", "…", "!", "?", "/"]).repeat(int(1, 40))).join(pick(["\n", " ", ""])),
		indent: () =>
			Array.from({ length: int(2, 20) }, () => `${pick([" ", "\t"]).repeat(int(0, 16))}${slice(pick(targets).text, 0, 60)}`).join("\n"),
	};
	const texts: FitText[] = [];
	const kinds = Object.keys(makers);
	const scripts = Object.keys(SCRIPT_RANGES);
	for (let k = 0; k < count; k++) {
		if (random() < 0.12) {
			const kind = pick(scripts);
			const [from, to] = SCRIPT_RANGES[kind] ?? [0x61, 0x7a];
			const text = Array.from({ length: int(2, 30) }, () => randomWord(from, to, int(1, 8))).join(" ");
			texts.push({ kind, text, target: false });
			continue;
		}
		const kind = pick(kinds);
		const text = (makers[kind] ?? (() => "x"))();
		if (text.trim() !== "") texts.push({ kind, text, target: false });
	}

	function randomHex(len: number): string {
		let s = "";
		for (let i = 0; i < len; i++) s += "0123456789abcdef".charAt(int(0, 15));
		return s;
	}
	return texts;
}
