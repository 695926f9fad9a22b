/**
 * The XMP metadata packet of a Factur-X PDF/A-3b: PDF/A identification (part 3, conformance B),
 * the document information mirrored from the Info dictionary (PDF/A demands they agree), the
 * Factur-X properties, and the PDF/A extension schema that declares them (without it a PDF/A
 * validator rejects the fx: properties). Schema text as in the Factur-X 1.0 specification.
 */
export interface XmpFields {
  title: string;
  author: string;
  creator: string;
  producer: string | undefined;
  /** ISO 8601, e.g. 2026-11-02T00:00:00+00:00. */
  created: string;
  modified: string;
  documentFileName: string;
  conformanceLevel: string;
}

const FACTUR_X_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

// XML 1.0 cannot carry unpaired surrogates or U+FFFE/U+FFFF; the request schema already refuses control characters.
const NOT_XML = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g;
const escape = (value: string) =>
  value
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const property = (name: string, description: string) => `                <rdf:li rdf:parseType="Resource">
                  <pdfaProperty:name>${name}</pdfaProperty:name>
                  <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                  <pdfaProperty:category>external</pdfaProperty:category>
                  <pdfaProperty:description>${description}</pdfaProperty:description>
                </rdf:li>`;

export function buildXmp(fields: XmpFields): string {
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
      <pdfaid:part>3</pdfaid:part>
      <pdfaid:conformance>B</pdfaid:conformance>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <dc:format>application/pdf</dc:format>
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escape(fields.title)}</rdf:li></rdf:Alt></dc:title>
      <dc:creator><rdf:Seq><rdf:li>${escape(fields.author)}</rdf:li></rdf:Seq></dc:creator>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
      <xmp:CreatorTool>${escape(fields.creator)}</xmp:CreatorTool>
      <xmp:CreateDate>${fields.created}</xmp:CreateDate>
      <xmp:ModifyDate>${fields.modified}</xmp:ModifyDate>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
${fields.producer !== undefined ? `      <pdf:Producer>${escape(fields.producer)}</pdf:Producer>\n` : ''}    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:fx="${FACTUR_X_NAMESPACE}">
      <fx:DocumentType>INVOICE</fx:DocumentType>
      <fx:DocumentFileName>${escape(fields.documentFileName)}</fx:DocumentFileName>
      <fx:Version>1.0</fx:Version>
      <fx:ConformanceLevel>${escape(fields.conformanceLevel)}</fx:ConformanceLevel>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
      <pdfaExtension:schemas>
        <rdf:Bag>
          <rdf:li rdf:parseType="Resource">
            <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
            <pdfaSchema:namespaceURI>${FACTUR_X_NAMESPACE}</pdfaSchema:namespaceURI>
            <pdfaSchema:prefix>fx</pdfaSchema:prefix>
            <pdfaSchema:property>
              <rdf:Seq>
${property('DocumentFileName', 'name of the embedded XML invoice file')}
${property('DocumentType', 'INVOICE')}
${property('Version', 'The actual version of the Factur-X XML schema')}
${property('ConformanceLevel', 'The conformance level of the embedded Factur-X data')}
              </rdf:Seq>
            </pdfaSchema:property>
          </rdf:li>
        </rdf:Bag>
      </pdfaExtension:schemas>
    </rdf:Description>
  </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}
