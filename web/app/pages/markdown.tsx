import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'preact/hooks';

// An image someone's HTML left without alt text is taken as decorative, rather than read out as a URL.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'IMG' && !node.hasAttribute('alt')) node.setAttribute('alt', '');
});

/**
 * Markdown as HTML (wikis, Body and Description previews), sanitised: a record's text is anyone's input,
 * so no script, handler or foreign frame survives. Images (`/binaries/<guid>/show`) stay.
 */
export function Markdown({ text }: { text: string }) {
  const html = useMemo(
    () => DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true, breaks: true }) as string),
    [text],
  );
  // Sanitised by DOMPurify just above.
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
