import { Download, Plus, Upload } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { contactsMsg } from '#contract/contacts';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { TagChip, TagChipList } from '#web/components/tag-chips';
import { Button } from '#web/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '#web/components/ui/popover';
import { useContactTags } from '#web/lib/queries/get-contact-tags';
import { type ContactsFilter, contactsExportUrl } from '../api/get-contacts';
import { ImportDialog } from './import-dialog';

const NO_FILTER: ContactsFilter = { q: '', tag: '' };

/** What the export holds, said in its menu: the whole list, or what the search and tag narrow it to. */
export function exportScopeText(filter: ContactsFilter): string {
  const parts = [filter.tag ? `com a tag ${filter.tag}` : '', filter.q ? `que correspondem a “${filter.q}”` : ''];
  const narrowed = parts.filter(Boolean).join(' e ');
  return narrowed ? `Somente os contatos ${narrowed}, como na lista.` : 'Todos os contatos.';
}

/**
 * Export links as CSV or XLSX (a plain download: the browser sends the session cookie), of the
 * contacts the list shows: the same search and tag (`contactsFilterParams`, the list's own).
 */
export function ExportContactsMenu({
  label = 'Exportar Contatos',
  filter = NO_FILTER,
}: {
  label?: string;
  filter?: ContactsFilter;
}) {
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline">
          <Download aria-hidden />
          {label}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="grid w-64 gap-1 p-2">
        <p className="px-2 pb-1 text-xs text-muted-foreground" data-testid="export-scope">
          {exportScopeText(filter)}
        </p>
        <Button variant="ghost" className="justify-start" asChild>
          <a href={contactsExportUrl('csv', filter)} download>
            Planilha CSV (.csv)
          </a>
        </Button>
        <Button variant="ghost" className="justify-start" asChild>
          <a href={contactsExportUrl('xlsx', filter)} download>
            Excel (.xlsx)
          </a>
        </Button>
      </PopoverContent>
    </Popover>
  );
}

/** Actions above the contacts list; the export follows the list's `filter`. */
export function ContactsToolbar({ onNew, filter }: { onNew: () => void; filter: ContactsFilter }) {
  const [importOpen, setImportOpen] = useState(false);
  return (
    <div className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 sm:flex">
      <ExportContactsMenu filter={filter} />
      <PermissionGatedButton variant="outline" icon={<Upload aria-hidden />} onClick={() => setImportOpen(true)}>
        Importar
      </PermissionGatedButton>
      <PermissionGatedButton team="agent" icon={<Plus aria-hidden />} onClick={onNew}>
        Novo Contato
      </PermissionGatedButton>
      <ImportDialog open={importOpen} onOpenChange={setImportOpen} />
    </div>
  );
}

/**
 * The account's tags as chips with their counts: pressing one lists only the contacts with that tag
 * ('Todos' lists everyone). Tags are how contact lists are made: a campaign to 'Contatos' can be
 * narrowed to the same tags.
 */
export function ContactTagFilter({ tag, onTagChange }: { tag: string; onTagChange: (tag: string) => void }) {
  const tags = useContactTags();
  const labelId = useId();
  let body: ReactNode;
  if (tags.isError) {
    body = <p className="text-sm text-muted-foreground">{contactsMsg.tagsLoadError}</p>;
  } else if (tags.data && tags.data.length === 0) {
    body = (
      <p className="text-sm text-muted-foreground">
        Nenhuma tag ainda. Marque contatos com tags (por exemplo: cliente, vip) para montar listas de envio.
      </p>
    );
  } else {
    body = (
      <TagChipList
        label="Filtrar por tag"
        tags={tags.data ?? undefined}
        isPressed={(t) => t === tag}
        onToggle={(t, pressed) => onTagChange(pressed ? t : '')}
        leading={<TagChip tag="Todos" pressed={tag === ''} onPressedChange={() => onTagChange('')} />}
      />
    );
  }
  return (
    <section className="grid gap-2" aria-labelledby={labelId}>
      <h3 id={labelId} className="text-sm font-medium">
        Tags
      </h3>
      {body}
    </section>
  );
}
