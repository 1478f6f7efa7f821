/** Ticket numbers as people read them: "#4, #5, #9", with long runs shortened to "#10–#40". */
export function formatTicketNumbers(numbers: readonly number[]): string {
  const sorted = [...numbers].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    const run = j - i + 1;
    if (run >= 4) parts.push(`#${sorted[i]}–#${sorted[j]}`);
    else for (let k = i; k <= j; k++) parts.push(`#${sorted[k]}`);
    i = j + 1;
  }
  return parts.join(", ");
}

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString("en-GB")} ${n === 1 ? one : many}`;
