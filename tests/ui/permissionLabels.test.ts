// The README names the permission card's buttons; the card must say the same words (and the README
// must change with them).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { en } from "../../src/i18n/en";
import { ROOT } from "../lint/sourceGraph";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");

describe("the permission card's buttons", () => {
	it("are named in the README exactly as the card labels them", () => {
		const keys = ["permission.accept", "permission.reject", "permission.allowChat", "permission.allowAlways", "permission.allowOnce", "permission.deny"] as const;
		for (const key of keys) expect(readme, `README names *${en[key]}*`).toContain(`*${en[key]}*`);
		expect([en["permission.accept"], en["permission.reject"], en["permission.allowChat"], en["permission.allowAlways"]]).toEqual(["Accept", "Reject", "Allow for this chat", "Always allow"]);
	});
});
