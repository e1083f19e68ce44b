import { describe, expect, it } from "vitest";
import { variantText } from "../../src/speech/espeak/variants.js";

// espeak-ng's own f4, as its espeak-ng-data has it.
const F4 = `language variant
name female4
gender female

echo 130 15
pitch 142 200
formant 0 120  80 150
stressAdd -20 -20 -20 -20 0 0 20 120
`;

describe("a variant of ours", () => {
  it("keeps espeak-ng's voice but its echo", () => {
    expect(variantText(F4, undefined)).toBe(
      "language variant\nname female4\ngender female\n\npitch 142 200\nformant 0 120  80 150\nstressAdd -20 -20 -20 -20 0 0 20 120\n",
    );
  });

  it("puts the catalog's pitch base and range in place of the variant's", () => {
    const text = variantText(F4, [130, 460]);
    expect(text).not.toMatch(/echo|pitch 142/);
    expect(text.trimEnd().split("\n").at(-1)).toBe("pitch 130 460");
    expect(text).toContain("formant 0 120  80 150");
  });

  it("is only the pitch when made from espeak-ng's defaults", () => {
    expect(variantText("", [60, 240])).toBe("pitch 60 240\n");
  });
});
