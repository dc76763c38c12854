-- No statement finds coordinator actions by external id (a workflow finds
-- its coordinator action through its own parent id), so the index only cost
-- every new action and every change of status an index entry.
DROP INDEX coord_actions_external;
