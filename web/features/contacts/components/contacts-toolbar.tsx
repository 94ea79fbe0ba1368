import { Download, Plus, Upload } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover';
import { ActionButton } from '../../auth/components/action-button';
import { contactsExportUrl } from '../api/import-contacts';
import { ImportDialog } from './import-dialog';

/** Export links as CSV or XLSX (a plain download: the browser sends the session cookie). */
export function ExportContactsMenu({ label = 'Exportar Contatos' }: { label?: string }) {
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline">
          <Download aria-hidden />
          {label}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="grid w-56 gap-1 p-2">
        <Button variant="ghost" className="justify-start" asChild>
          <a href={contactsExportUrl('csv')} download>
            Planilha CSV (.csv)
          </a>
        </Button>
        <Button variant="ghost" className="justify-start" asChild>
          <a href={contactsExportUrl('xlsx')} download>
            Excel (.xlsx)
          </a>
        </Button>
      </PopoverContent>
    </Popover>
  );
}

/** Actions above the contacts list. */
export function ContactsToolbar({ onNew }: { onNew: () => void }) {
  const [importOpen, setImportOpen] = useState(false);
  return (
    <div className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 sm:flex">
      <ExportContactsMenu />
      <ActionButton variant="outline" icon={<Upload aria-hidden />} onClick={() => setImportOpen(true)}>
        Importar
      </ActionButton>
      <ActionButton icon={<Plus aria-hidden />} onClick={onNew}>
        Novo Contato
      </ActionButton>
      <ImportDialog open={importOpen} onOpenChange={setImportOpen} />
    </div>
  );
}
