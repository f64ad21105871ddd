"""Divergence among the work-items of a sub-group or work-group (KL501, KL502), from the dependence
analysis's branch facts: branches whose lanes disagree (`classes` grades them by cost and action), and
barriers not every work-item reaches."""
