import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import type { Campaign } from '#contract/campaigns';
import { CampaignDialog } from './campaign-dialog';

interface CampaignDialogControls {
  /** Opens the empty 'Nova Campanha' dialog over whatever page is showing. */
  openNewCampaign: () => void;
  /** Opens the same dialog filled with a draft or scheduled campaign. */
  openEditCampaign: (campaign: Campaign) => void;
}

const CampaignDialogContext = createContext<CampaignDialogControls | null>(null);

/**
 * Holds the one campaign dialog of the signed-in shell, so the header, the dashboard and the
 * campaigns page all open the same one without leaving the page they are on.
 */
export function NewCampaignProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [campaign, setCampaign] = useState<Campaign | null>(null);

  const openNewCampaign = useCallback(() => {
    setCampaign(null);
    setOpen(true);
  }, []);
  const openEditCampaign = useCallback((c: Campaign) => {
    setCampaign(c);
    setOpen(true);
  }, []);
  const controls = useMemo(() => ({ openNewCampaign, openEditCampaign }), [openNewCampaign, openEditCampaign]);

  return (
    <CampaignDialogContext.Provider value={controls}>
      {children}
      <CampaignDialog open={open} campaign={campaign} onOpenChange={setOpen} />
    </CampaignDialogContext.Provider>
  );
}

export function useNewCampaign(): CampaignDialogControls {
  const controls = useContext(CampaignDialogContext);
  if (!controls) throw new Error('useNewCampaign needs a <NewCampaignProvider> above it');
  return controls;
}
