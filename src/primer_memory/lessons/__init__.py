"""What only the notebooks need: worked examples, figures, panels (widgets/), exercises, demonstrations.

Nothing in the parts imports this package; it imports the parts.
"""
