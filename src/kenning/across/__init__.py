"""All projects: one question over every registered store (read-only), confidential ones
excluded, results labelled by project and ranked by RRF; the transverse memory."""
