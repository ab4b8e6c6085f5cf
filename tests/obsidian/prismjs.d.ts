// The part of the `prismjs` package the runtime's loadPrism uses (rendering.ts); no @types package needed.
declare module "prismjs" {
	const Prism: {
		manual?: boolean;
		languages: Record<string, unknown>;
		tokenize(text: string, grammar: unknown): unknown[];
	};
	export default Prism;
}
declare module "prismjs/components/*";
