/** How long a flash message stays on screen (SPEC.md section 9). */
export const flashDurationMs = 3000;

export const brandName = 'Balance';
