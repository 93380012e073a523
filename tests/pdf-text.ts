import { getDocumentProxy } from 'unpdf';

/**
 * The text of a PDF, page by page, as a reader extracts it (PDF.js as unpdf ships it: pure
 * JavaScript with no dependencies, so no system package and no native canvas is needed). Text
 * items of a line are joined with a space, lines with a line break.
 */
export async function pdfText(data: Uint8Array): Promise<{ pages: number; text: string }> {
  const document = await getDocumentProxy(new Uint8Array(data), { useSystemFonts: false });
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    let text = '';
    for (const item of content.items) {
      if (!('str' in item)) continue;
      text += item.str + (item.hasEOL ? '\n' : ' ');
    }
    pages.push(text);
  }
  const count = document.numPages;
  await document.cleanup();
  return { pages: count, text: pages.join('\n') };
}

/**
 * Each piece of text of a PDF's pages with the font it is drawn in (its PostScript name, without
 * the subset's "ABCDEF+" tag): a letter the font lacks still extracts as text, but draws nothing.
 */
export async function pdfTextFonts(data: Uint8Array): Promise<{ text: string; font: string }[]> {
  const document = await getDocumentProxy(new Uint8Array(data), { useSystemFonts: false });
  const pieces: { text: string; font: string }[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    // The fonts are known to the page's objects once its drawing operators are read.
    await page.getOperatorList();
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const font = page.commonObjs.get(item.fontName) as { name: string };
      pieces.push({ text: item.str, font: font.name.replace(/^[A-Z]{6}\+/, '') });
    }
  }
  await document.cleanup();
  return pieces;
}
