/** The start of an extension page (the chat, the compare view): its Content Security Policy and title, up to its styles. */
export function pageHead(csp: string, title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${title}</title>`;
}
