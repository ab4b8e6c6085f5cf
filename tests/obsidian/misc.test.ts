// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { debounce, Platform, requestUrl, setIcon } from "obsidian";
import { asObsidianApp, createTestApp, emulateMobile, quitApp, restorePlatform, setRequestUrlHandler } from "./harness";

afterEach(() => restorePlatform());

describe("requestUrl", () => {
	it("rejects without a handler: tests have no network", async () => {
		await expect(requestUrl("http://localhost:11434/api/tags")).rejects.toThrow(/no requestUrl handler/);
	});

	it("answers through a handler, rejects on HTTP errors unless throw is false", async () => {
		setRequestUrlHandler((req) => ({ status: req.url.endsWith("/missing") ? 404 : 200, headers: {}, arrayBuffer: new ArrayBuffer(0), json: { ok: true }, text: '{"ok":true}' }));
		await expect(requestUrl("http://x/ok").json).resolves.toEqual({ ok: true });
		await expect(requestUrl({ url: "http://x/missing" })).rejects.toThrow(/status 404/);
		await expect(requestUrl({ url: "http://x/missing", throw: false })).resolves.toMatchObject({ status: 404 });
	});
});

describe("debounce", () => {
	it("runs once after the calls stop (resetTimer) with the last arguments; cancel and run work", () => {
		vi.useFakeTimers();
		try {
			const seen: number[] = [];
			const d = debounce((n: number) => seen.push(n), 100, true);
			d(1);
			vi.advanceTimersByTime(60);
			d(2);
			vi.advanceTimersByTime(60);
			expect(seen).toEqual([]);
			vi.advanceTimersByTime(50);
			expect(seen).toEqual([2]);
			d(3);
			d.cancel();
			vi.advanceTimersByTime(200);
			expect(seen).toEqual([2]);
			d(4);
			d.run();
			expect(seen).toEqual([2, 4]);
		} finally {
			vi.useRealTimers();
		}
	});

	it("without resetTimer, fires on the first call's schedule", () => {
		vi.useFakeTimers();
		try {
			const seen: number[] = [];
			const d = debounce((n: number) => seen.push(n), 100);
			d(1);
			vi.advanceTimersByTime(60);
			d(2);
			vi.advanceTimersByTime(45);
			expect(seen).toEqual([2]);
		} finally {
			vi.useRealTimers();
		}
	});
});

describe("Platform and icons", () => {
	it("is a desktop app by default; emulateMobile flips it", () => {
		expect(Platform.isDesktopApp).toBe(true);
		emulateMobile();
		expect([Platform.isDesktopApp, Platform.isMobile, Platform.isMobileApp]).toEqual([false, true, true]);
		restorePlatform();
		expect(Platform.isDesktopApp).toBe(true);
	});

	it("setIcon replaces the content with an svg named after the icon", () => {
		const el = createDiv({ text: "old" });
		setIcon(el, "send");
		expect(el.children).toHaveLength(1);
		expect(el.find("svg")?.getAttr("class")).toBe("svg-icon lucide-send");
	});
});

describe("quitting", () => {
	it("waits for every task the quit listeners add", async () => {
		const app = await createTestApp();
		const done: string[] = [];
		asObsidianApp(app).workspace.on("quit", (tasks) => {
			expect(tasks.isEmpty()).toBe(true);
			tasks.add(async () => {
				await new Promise((resolve) => window.setTimeout(resolve, 5));
				done.push("saved");
			});
			tasks.addPromise(Promise.resolve().then(() => done.push("flushed")));
			expect(tasks.isEmpty()).toBe(false);
		});
		await quitApp(app);
		expect(done.sort()).toEqual(["flushed", "saved"]);
	});
});
