// What the browser test measures on the page: contrast, the header's, an answer's and the
// permission card's layout, highlighted rows, overflow and clipping, missing glyphs.

/** WCAG contrast of each selector's text against the first opaque background behind it (null: not on the page). */
export async function contrasts(page, selectors) {
	return page.evaluate((sels) => {
		const rgb = (css) => {
			const srgb = css.match(/color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)/);
			if (srgb) return { c: srgb.slice(1, 4).map((v) => Number(v) * 255), a: srgb[4] === undefined ? 1 : Number(srgb[4]) };
			const m = css.match(/rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/);
			return m ? { c: m.slice(1, 4).map(Number), a: m[4] === undefined ? 1 : Number(m[4]) } : { c: [0, 0, 0], a: 0 };
		};
		const lum = ([r, g, b]) => {
			const lin = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
			return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
		};
		return Object.fromEntries(
			sels.map((sel) => {
				const el = document.querySelector(sel);
				if (!el || el.textContent === "") return [sel, null];
				let bg = el;
				while (bg && rgb(getComputedStyle(bg).backgroundColor).a < 1) bg = bg.parentElement;
				const [a, b] = [lum(rgb(getComputedStyle(el).color).c), lum(rgb(bg ? getComputedStyle(bg).backgroundColor : "rgb(255, 255, 255)").c)];
				return [sel, Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100];
			}),
		);
	}, selectors);
}

/** Where the header's title, buttons and model sit, and which are cut short by an ellipsis. */
export async function headerLayout(page) {
	return page.evaluate(() => {
		const q = (sel) => document.querySelector(`.discover-chat-view ${sel}`);
		const rect = (sel) => q(sel)?.getBoundingClientRect() ?? { top: NaN, bottom: NaN, left: NaN, right: NaN };
		const cut = (sel) => {
			const el = q(sel);
			return el ? el.scrollWidth > el.clientWidth + 1 : false;
		};
		const title = rect(".discover-chat-title");
		return {
			titleBottom: Math.round(title.bottom),
			titleGap: Math.round(rect(".discover-chat-header-actions").left - title.right),
			modelTop: Math.round(rect(".discover-chat-model").top),
			titleCut: cut(".discover-chat-title-text"),
			agent: q(".discover-chat-agent-name:not(.discover-chat-hidden)")?.textContent ?? "",
			agentCut: cut(".discover-chat-agent-name"),
			model: q(".discover-chat-model-name")?.textContent ?? "",
			modelCut: cut(".discover-chat-model-name"),
			label: q(".discover-chat-title")?.getAttribute("aria-label") ?? "",
		};
	});
}

/**
 * The last answer (every assistant message after the last message of the person's): the blank
 * between its cards, and its action rows on screen with where they sit.
 */
export async function answerLayout(page) {
	return page.evaluate(() => {
		const list = [...document.querySelectorAll(".discover-chat-view .discover-chat-messages .discover-chat-message")];
		const start = list.findLastIndex((m) => m.classList.contains("discover-chat-message-user")) + 1;
		const rounds = list.slice(start);
		const cards = rounds.flatMap((m) => [...m.querySelectorAll(".discover-tool-card")]).map((c) => c.getBoundingClientRect());
		const gaps = cards.slice(1).map((c, i) => Math.round(c.top - cards[i].bottom));
		const rows = rounds.map((m) => m.querySelector(":scope > .discover-chat-message-meta")).filter((r) => r && getComputedStyle(r).display !== "none");
		const texts = rounds.flatMap((m) => [...m.querySelectorAll(":scope > .discover-chat-message-body p, .discover-tool-card")]).map((e) => e.getBoundingClientRect().bottom);
		const row = rows.at(-1)?.getBoundingClientRect();
		return { gaps, rows: rows.length, rowBelowAll: row !== undefined && texts.every((b) => row.top >= b - 1) };
	});
}

/** The permission prompt in its card: a box of its own or not, how often its title shows, and whether its bottom is in view. */
export async function permissionLayout(page) {
	return page.evaluate(() => {
		const prompt = document.querySelector(".discover-chat-view .discover-tool-card .discover-permission");
		if (!prompt) return null;
		const card = prompt.closest(".discover-tool-card");
		const style = getComputedStyle(prompt);
		const title = card.querySelector(".discover-tool-card-title")?.textContent ?? "";
		const shown = [...card.querySelectorAll("*")].filter((e) => e.childElementCount === 0 && e.textContent === title && e.checkVisibility() && e.getBoundingClientRect().width > 2);
		const list = document.querySelector(".discover-chat-view .discover-chat-messages").getBoundingClientRect();
		const actions = prompt.querySelector(".discover-permission-actions").getBoundingClientRect();
		return {
			boxed: style.borderTopWidth !== "0px" || style.backgroundColor !== "rgba(0, 0, 0, 0)",
			titleShown: shown.length,
			title,
			bottomInView: Math.round(list.bottom - actions.bottom),
		};
	});
}

/** How many rows of a list paint a highlight (a background of their own). */
export async function highlightedRows(page, sel) {
	return page.evaluate((s) => [...document.querySelectorAll(s)].filter((r) => getComputedStyle(r).backgroundColor !== "rgba(0, 0, 0, 0)").length, sel);
}


/** For each answer on screen: the space from its "Assistant" label to its first line of text. */
export async function labelGaps(page) {
	return page.evaluate(() =>
		[...document.querySelectorAll(".discover-chat-view .discover-chat-message-assistant:not(.discover-chat-message-continued)")]
			.map((m) => {
				const label = m.querySelector(":scope > .discover-chat-message-role");
				const text = m.querySelector(":scope > .discover-chat-message-body p");
				return label && text && label.checkVisibility() ? Math.round(text.getBoundingClientRect().top - label.getBoundingClientRect().bottom) : null;
			})
			.filter((g) => g !== null),
	);
}

/**
 * Characters of the panel's visible text that render as the missing-glyph box in the panel's font:
 * each is drawn on a canvas and compared with a code point no font has (U+10FFFD); a character whose
 * pixels match it has no glyph. Without a CJK font every Japanese or Chinese label is a row of boxes,
 * and a screenshot of boxes passes every layout check.
 */
export async function missingGlyphs(p) {
	return p.evaluate(() => {
		const view = document.querySelector(".discover-chat-view");
		const font = `16px ${getComputedStyle(view ?? document.body).fontFamily}`;
		const chars = [...new Set([...(view?.textContent ?? "")].filter((c) => c.codePointAt(0) > 0x2e7f))].slice(0, 60);
		const canvas = document.createElement("canvas");
		canvas.width = 24;
		canvas.height = 24;
		const ctx = canvas.getContext("2d", { willReadFrequently: true });
		const pixels = (c) => {
			ctx.clearRect(0, 0, 24, 24);
			ctx.font = font;
			ctx.fillStyle = "#000";
			ctx.fillText(c, 2, 18);
			return ctx.getImageData(0, 0, 24, 24).data.join(",");
		};
		const none = pixels(String.fromCodePoint(0x10fffd));
		return chars.filter((c) => pixels(c) === none);
	});
}

/**
 * Elements whose text runs past their box: rows of the panel, the history and the settings, and every
 * button. Names people chose (a chat's title, a model, a note) are cut with an ellipsis on purpose.
 */
export async function overflowing(p) {
	return p.evaluate(() => {
		const rows = ".discover-chat-header, .discover-chat-composer, .discover-chat-context-bar, .discover-chat-empty-row, .discover-chat-empty-model, .discover-chat-empty-prompt, .discover-chat-error, .discover-chat-status, .discover-chat-history-item-meta, .discover-chat-history-actions, .setting-item-name, .setting-item-control, button";
		const named = ".discover-chat-title, .discover-chat-model-name, .discover-chat-context-name, .discover-chat-history-item-title, .discover-chat-history-session-title, .discover-chat-empty-model-name";
		const out = [];
		for (const el of document.querySelectorAll(rows)) {
			if (!el.checkVisibility() || el.closest(named)) continue;
			if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1 && getComputedStyle(el).overflowY === "hidden") {
				out.push(`${el.className || el.tagName}: "${(el.textContent ?? "").trim().slice(0, 40)}" ${el.scrollWidth}>${el.clientWidth}`);
			}
		}
		return out;
	});
}

/**
 * The panel's messages: those whose hidden actions leave a blank row under them (content ending
 * more than a pixel above the message's padding box), each body's top (to see hovering moves
 * nothing), and the gaps from one message's text to the next message.
 */
export async function messageLayout(page) {
	return page.evaluate(() => {
		const items = Array.from(document.querySelectorAll(".discover-chat-view .discover-chat-message")).filter((m) => m.checkVisibility());
		const blankRows = [];
		for (const m of items) {
			const inner = m.getBoundingClientRect().bottom - parseFloat(getComputedStyle(m).paddingBottom);
			const inFlow = Array.from(m.children).filter((c) => c.checkVisibility() && getComputedStyle(c).position !== "absolute");
			const end = Math.max(...inFlow.filter((c) => !c.classList.contains("discover-chat-message-meta") || c.querySelector(".discover-chat-message-stopped, .discover-chat-message-interrupted")).map((c) => c.getBoundingClientRect().bottom));
			if (inner - end > 1) blankRows.push(`${m.dataset.messageId}: ${Math.round(inner - end)} px`);
		}
		// From the end of one message's text to the next message, per kind of step (answer to
		// question, question to answer): equal whether or not a message has actions or marks.
		const gaps = {};
		for (let i = 1; i < items.length; i++) {
			const kind = `${items[i - 1].classList.contains("discover-chat-message-user") ? "user" : "assistant"}→${items[i].classList.contains("discover-chat-message-user") ? "user" : "assistant"}`;
			const prevEnd = items[i - 1].querySelector(".discover-chat-message-body").getBoundingClientRect().bottom;
			(gaps[kind] ??= []).push(Math.round(items[i].getBoundingClientRect().top - prevEnd));
		}
		const tops = items.map((m) => Math.round(m.querySelector(".discover-chat-message-body")?.getBoundingClientRect().top ?? 0));
		return { blankRows, gaps, tops };
	});
}

/**
 * Answers whose action bar (shown on hover, and always on phones) overlaps a tool card: where the
 * bar sits is measured whether or not it is shown, so one hover cannot hide the fault.
 */
export async function actionsOverCards(page) {
	return page.evaluate(() => {
		const view = document.querySelector(".discover-chat-view");
		const cards = Array.from(view.querySelectorAll(".discover-tool-card")).filter((c) => c.checkVisibility());
		const out = [];
		for (const bar of view.querySelectorAll(".discover-chat-message-actions")) {
			if (!bar.checkVisibility()) continue;
			const a = bar.getBoundingClientRect();
			if (a.width === 0 || a.height === 0) continue;
			for (const card of cards) {
				const c = card.getBoundingClientRect();
				const x = Math.min(a.right, c.right) - Math.max(a.left, c.left);
				const y = Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top);
				if (x > 0 && y > 0) out.push(`${bar.closest(".discover-chat-message")?.dataset.messageId} over "${card.querySelector(".discover-tool-card-title")?.textContent}" (${Math.round(x)}×${Math.round(y)} px)`);
			}
		}
		return out;
	});
}

/** How many pixels of the history's first visible message are hidden under the top of its list. */
export async function firstCardCut(page) {
	return page.evaluate(() => {
		const list = document.querySelector(".discover-chat-history-messages");
		const top = list.getBoundingClientRect().top;
		for (const card of list.querySelectorAll(".discover-chat-history-message")) {
			const r = card.getBoundingClientRect();
			if (r.bottom <= top + 1) continue;
			return Math.max(0, Math.round(top - r.top));
		}
		return 0;
	});
}

/**
 * What overflows at this width: the page, any of `selectors` wider than its box (scrollWidth >
 * clientWidth), and buttons whose text is clipped or that reach past the screen's edge.
 */
export async function overflows(page, selectors) {
	return page.evaluate((sels) => {
		const out = [];
		const vw = document.documentElement.clientWidth;
		if (document.documentElement.scrollWidth > vw + 1) out.push(`the page (${document.documentElement.scrollWidth} > ${vw} px)`);
		for (const sel of sels) {
			for (const el of document.querySelectorAll(sel)) {
				if (el.checkVisibility() && el.scrollWidth > el.clientWidth + 1) out.push(`${sel} (${el.scrollWidth} > ${el.clientWidth} px)`);
			}
		}
		for (const b of document.querySelectorAll("button")) {
			if (!b.checkVisibility()) continue;
			const r = b.getBoundingClientRect();
			if (r.width === 0) continue;
			// Text wrapped past the button's height is clipped too.
			if (b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1 || r.right > vw + 1 || r.left < -1) out.push(`button "${(b.textContent || b.getAttribute("aria-label") || "").trim().slice(0, 30)}" (${b.scrollWidth} > ${b.clientWidth} px, right edge ${Math.round(r.right)})`);
		}
		// A dropdown whose chosen option does not fit shows it cut.
		const ruler = document.createElement("canvas").getContext("2d");
		for (const sel of document.querySelectorAll("select")) {
			if (!sel.checkVisibility()) continue;
			const cs = getComputedStyle(sel);
			ruler.font = cs.font;
			const text = sel.options[sel.selectedIndex]?.text ?? "";
			const width = ruler.measureText(text).width;
			const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16;
			if (width > room + 1) out.push(`dropdown "${text.slice(0, 30)}" (${Math.round(width)} px of text in ${Math.round(room)} px)`);
		}
		return out;
	}, selectors);
}

/**
 * The scroll position of `selector` once it stopped changing: two more frames in a row with the same
 * position and height and no plain-text message left in view. By then the browser has also
 * delivered the scroll events for every change (they fire at the start of the next frame).
 */
export async function settledScrollTop(page, selector) {
	return page.evaluate(async (sel) => {
		const frame = () => new Promise((resolve) => window.requestAnimationFrame(() => resolve()));
		const el = document.querySelector(sel);
		const plainInView = () => {
			const view = el.getBoundingClientRect();
			return Array.from(el.querySelectorAll(".is-plain")).some((p) => {
				const r = p.getBoundingClientRect();
				return r.bottom > view.top && r.top < view.bottom;
			});
		};
		let last = "";
		// At most ~10 s of frames: a position that never settles is read as it is, and fails the check.
		for (let same = 0, frames = 0; same < 2 && frames < 600; frames++) {
			await frame();
			const now = `${el.scrollTop}/${el.scrollHeight}`;
			same = now === last && !plainInView() ? same + 1 : 0;
			last = now;
		}
		return el.scrollTop;
	}, selector);
}
