import fc from "fast-check";

/** Sample words in many scripts, so property tests exercise every branch of the estimator. */
const WORDS: readonly string[] = [
	"the", "budget", "window", "conversation", "Zusammenfassung", "Gesprächsverlauf", "résumé",
	"привет", "мир", "разговор", "こんにちは", "世界", "要約", "会話", "안녕하세요", "대화",
	"مرحبا", "محادثة", "שלום", "שיחה", "नमस्ते", "बातचीत", "สวัสดี", "Γειά", "σου",
	"😀", "👩‍💻", "🎉🎉", "QUJDREVGR0g=", "https://example.com/a?b=c", "`code()`", "{\"k\": 1}",
	"42", "3.14159", "#", "- [ ]", "**bold**", "\t", "",
];

/** A line of words from mixed scripts. */
export const lineArb: fc.Arbitrary<string> = fc
	.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 24 })
	.map((words) => words.join(" "));

/** Multi-line text in mixed scripts, sometimes with arbitrary Unicode mixed in. */
export const textArb: fc.Arbitrary<string> = fc.oneof(
	{ weight: 4, arbitrary: fc.array(lineArb, { minLength: 1, maxLength: 12 }).map((lines) => lines.join("\n")) },
	{ weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 300 }) },
	{ weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
);

/** A non-empty message text. */
export const messageTextArb: fc.Arbitrary<string> = textArb.map((t) => (t.trim() === "" ? "hello" : t));
