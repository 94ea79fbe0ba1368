import { Download, Plus, Upload } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover';
import { PermissionGatedButton } from '../../auth/components/permission-gated-button';
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
      <PermissionGatedButton variant="outline" icon={<Upload aria-hidden />} onClick={() => setImportOpen(true)}>
        Importar
      </PermissionGatedButton>
      <PermissionGatedButton icon={<Plus aria-hidden />} onClick={onNew}>
        Novo Contato
      </PermissionGatedButton>
      <ImportDialog open={importOpen} onOpenChange={setImportOpen} />
    </div>
  );
}
