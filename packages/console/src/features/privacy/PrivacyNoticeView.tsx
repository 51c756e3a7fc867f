import type { PrivacyNotice } from '@wellrest/core';

/** The sections of the privacy and HIPAA notice, and its last-updated line. */
export function PrivacyNoticeView({
  notice,
  headingLevel = 3,
}: {
  notice: PrivacyNotice;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="grid gap-5 text-sm leading-relaxed text-slate-700">
      {notice.sections.map((section) => (
        <section key={section.heading} className="grid gap-2">
          <Heading className="text-sm font-semibold text-slate-900">{section.heading}</Heading>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      <p className="border-t border-slate-200 pt-4 text-xs text-slate-600">{notice.lastUpdated}</p>
    </div>
  );
}
